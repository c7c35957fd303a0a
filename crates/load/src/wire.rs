//! One client connection speaking docs/protocol.md with the `dominion-protocol` types:
//! connect, `hello`/`welcome`, commands out, frames in.
//!
//! Incoming frames are first read for their `type` only: `events`, `room` and
//! `snapshot` frames (most of the bytes) are not acted on, so they are not decoded
//! further, which keeps the client's own CPU use small next to the server's. Every
//! frame the client acts on is decoded as a whole `ServerMessage`.

use dominion_protocol::{
    ClientMessage, DecisionRequest, ErrorCode, Limits, PROTOCOL_VERSION, ServerMessage,
};
use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use std::net::{IpAddr, SocketAddr};
use std::time::Duration;
use tokio::net::{TcpSocket, TcpStream};
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::{self, Message};

pub type Ws = WebSocketStream<TcpStream>;

/// Why a connection could not go on.
#[derive(Debug, thiserror::Error)]
pub enum Failure {
    #[error("cannot connect: {0}")]
    Connect(std::io::Error),
    #[error("upgrade refused with HTTP {0}{hint}", hint = upgrade_hint(*.0))]
    Refused(u16),
    #[error("websocket: {0}")]
    WebSocket(#[from] tungstenite::Error),
    #[error("the server closed the connection{}", close_text(*.0, .1))]
    Closed(Option<u16>, String),
    #[error("the server refused a command: {code:?}: {message}{hint}", hint = error_hint(*.code))]
    Refusal { code: ErrorCode, message: String },
    #[error("unexpected frame: {0}")]
    Unexpected(String),
    #[error("no frame from the server within {0:?}")]
    Silent(Duration),
}

fn upgrade_hint(status: u16) -> &'static str {
    if status == 503 {
        " (the server holds its --max-connections, or its --connections-per-address from this address)"
    } else {
        ""
    }
}

fn error_hint(code: ErrorCode) -> &'static str {
    match code {
        ErrorCode::RateLimited => {
            " (start the server with a larger --rate-messages / shorter --rate-window)"
        }
        ErrorCode::TooManyRooms => {
            " (start the server with a larger --max-rooms or a shorter --finished-room-ttl)"
        }
        _ => "",
    }
}

fn close_text(code: Option<u16>, reason: &str) -> String {
    match code {
        Some(1008) => format!(" with 1008 ({reason}): raise the server's --rate-messages"),
        Some(code) => format!(" with {code} ({reason})"),
        None => String::new(),
    }
}

/// Small socket buffers: tungstenite's defaults (128 KiB each way) would make the
/// client's own memory the limit long before the server's with thousands of idle
/// connections. The server's largest frames (a view with events) are a few KiB.
fn ws_config() -> WebSocketConfig {
    WebSocketConfig::default()
        .read_buffer_size(8 * 1024)
        .write_buffer_size(0)
}

/// Opens a TCP connection to `addr` from the local address `from` (any port), or from
/// wherever the system chooses: on loopback every 127.x.y.z is this machine, so one
/// tool can stand for many client addresses.
pub async fn tcp_from(addr: SocketAddr, from: Option<IpAddr>) -> std::io::Result<TcpStream> {
    let Some(ip) = from else {
        return TcpStream::connect(addr).await;
    };
    let socket = match ip {
        IpAddr::V4(_) => TcpSocket::new_v4()?,
        IpAddr::V6(_) => TcpSocket::new_v6()?,
    };
    socket.bind(SocketAddr::new(ip, 0))?;
    socket.connect(addr).await
}

/// Opens `ws://ADDR/ws` from the local address `from` (see [`tcp_from`]) with Nagle off
/// (the client answers at once; it should not wait for an ACK to send a small frame).
pub async fn connect_from(addr: SocketAddr, from: Option<IpAddr>) -> Result<Ws, Failure> {
    let tcp = tcp_from(addr, from).await.map_err(Failure::Connect)?;
    tcp.set_nodelay(true).map_err(Failure::Connect)?;
    let url = format!("ws://{addr}/ws");
    match tokio_tungstenite::client_async_with_config(url, tcp, Some(ws_config())).await {
        Ok((ws, _)) => Ok(ws),
        Err(tungstenite::Error::Http(response)) => {
            Err(Failure::Refused(response.status().as_u16()))
        }
        Err(e) => Err(Failure::WebSocket(e)),
    }
}

/// Sends `hello` and waits for `welcome`; returns the connection's limits.
pub async fn hello(ws: &mut Ws, wait: Duration) -> Result<Limits, Failure> {
    send(
        ws,
        &ClientMessage::Hello {
            protocol: PROTOCOL_VERSION,
            client: Some(format!("dominion-load/{}", env!("CARGO_PKG_VERSION"))),
            token: None,
        },
    )
    .await?;
    loop {
        let msg = tokio::time::timeout(wait, ws.next())
            .await
            .map_err(|_| Failure::Silent(wait))?;
        match classify(msg)? {
            Frame::Welcome(limits) => return Ok(limits),
            Frame::Error { code, message, .. } => return Err(Failure::Refusal { code, message }),
            Frame::Ignored => continue,
            other => return Err(Failure::Unexpected(format!("{other:?} before welcome"))),
        }
    }
}

/// Connects and greets.
pub async fn open(addr: SocketAddr, wait: Duration) -> Result<(Ws, Limits), Failure> {
    open_from(addr, None, wait).await
}

/// Connects from `from` (see [`tcp_from`]) and greets.
pub async fn open_from(
    addr: SocketAddr,
    from: Option<IpAddr>,
    wait: Duration,
) -> Result<(Ws, Limits), Failure> {
    let mut ws = tokio::time::timeout(wait, connect_from(addr, from))
        .await
        .map_err(|_| Failure::Silent(wait))??;
    let limits = hello(&mut ws, wait).await?;
    Ok((ws, limits))
}

pub fn text(msg: &ClientMessage) -> Message {
    Message::text(serde_json::to_string(msg).expect("client messages serialize"))
}

pub async fn send(ws: &mut Ws, msg: &ClientMessage) -> Result<(), Failure> {
    ws.send(text(msg)).await?;
    Ok(())
}

/// A received frame, as far as a load client cares.
#[derive(Debug)]
pub enum Frame {
    Welcome(Limits),
    Decision(Box<DecisionRequest>),
    GameOver,
    /// `room_created`: the new room's id.
    RoomCreated {
        re: u64,
        room: String,
    },
    Seated {
        re: u64,
        seat: u8,
    },
    /// `match_queued`: still waiting in the automatch queue.
    MatchQueued,
    /// `match_proposed`: answer `accept_match` naming `match_id`.
    MatchProposed {
        match_id: String,
    },
    /// `match_found`: seated in `room`.
    MatchFound {
        room: String,
    },
    /// `match_cancelled`, with its reason.
    MatchCancelled(dominion_protocol::MatchCancelReason),
    /// `ack` or `pong`: nothing to act on (the load clients wait for no ack).
    Ack,
    Error {
        re: Option<u64>,
        code: ErrorCode,
        message: String,
    },
    /// Events, room updates, snapshots, WebSocket pings and anything new.
    Ignored,
}

/// Only the tag, for the frames that need nothing more.
#[derive(Deserialize)]
struct Tag<'a> {
    #[serde(rename = "type", borrow)]
    kind: std::borrow::Cow<'a, str>,
}

/// Reads one item of the stream: a frame, or why the connection ended.
pub fn classify(item: Option<Result<Message, tungstenite::Error>>) -> Result<Frame, Failure> {
    let text = match item {
        None => return Err(Failure::Closed(None, String::new())),
        Some(Err(e)) => return Err(Failure::WebSocket(e)),
        Some(Ok(Message::Text(text))) => text,
        Some(Ok(Message::Close(frame))) => {
            return Err(match frame {
                Some(f) => Failure::Closed(Some(u16::from(f.code)), f.reason.to_string()),
                None => Failure::Closed(None, String::new()),
            });
        }
        Some(Ok(_)) => return Ok(Frame::Ignored),
    };
    let tag: Tag = serde_json::from_str(text.as_str())
        .map_err(|e| Failure::Unexpected(format!("a frame without a type ({e})")))?;
    if matches!(
        tag.kind.as_ref(),
        "events" | "room" | "snapshot" | "room_list" | "spectating"
    ) {
        return Ok(Frame::Ignored);
    }
    let msg: ServerMessage = match serde_json::from_str(text.as_str()) {
        Ok(msg) => msg,
        // A message type this client does not know: ignored, as the protocol asks.
        Err(_) if !KNOWN.contains(&tag.kind.as_ref()) => return Ok(Frame::Ignored),
        Err(e) => {
            return Err(Failure::Unexpected(format!(
                "cannot read a {} frame: {e}",
                tag.kind
            )));
        }
    };
    Ok(match msg {
        ServerMessage::Welcome { limits, .. } => Frame::Welcome(limits),
        ServerMessage::Decision(d) => Frame::Decision(Box::new(d)),
        ServerMessage::GameOver(_) => Frame::GameOver,
        ServerMessage::RoomCreated { re, room } => Frame::RoomCreated { re, room: room.id },
        ServerMessage::Seated { re, seat, .. } => Frame::Seated { re, seat },
        ServerMessage::Ack { .. } | ServerMessage::Pong { .. } => Frame::Ack,
        ServerMessage::Error { re, code, message } => Frame::Error { re, code, message },
        ServerMessage::RoomList { .. }
        | ServerMessage::Spectating { .. }
        | ServerMessage::Room { .. }
        | ServerMessage::Snapshot { .. }
        | ServerMessage::Events { .. }
        | ServerMessage::UndoRequested { .. }
        | ServerMessage::UndoResult { .. }
        | ServerMessage::Chat(_)
        | ServerMessage::ChatLog { .. }
        | ServerMessage::History { .. }
        | ServerMessage::ChatHistory { .. }
        | ServerMessage::Rematch { .. }
        | ServerMessage::Removed { .. }
        | ServerMessage::Invited { .. }
        | ServerMessage::RatingChanged { .. }
        | ServerMessage::Hint { .. } => Frame::Ignored,
        ServerMessage::MatchQueued { .. } => Frame::MatchQueued,
        ServerMessage::MatchProposed { match_id, .. } => Frame::MatchProposed { match_id },
        ServerMessage::MatchFound { room, .. } => Frame::MatchFound { room },
        ServerMessage::MatchCancelled { reason } => Frame::MatchCancelled(reason),
    })
}

/// The message types of protocol version 1 (a frame of one of them that does not read
/// is an error; any other type is new and ignored).
const KNOWN: &[&str] = &[
    "welcome",
    "pong",
    "ack",
    "error",
    "room_list",
    "room_created",
    "seated",
    "spectating",
    "room",
    "snapshot",
    "events",
    "decision",
    "game_over",
    "undo_requested",
    "undo_result",
    "chat",
    "chat_log",
    "history",
    "rematch",
    "chat_history",
    "removed",
    "invited",
    "match_queued",
    "match_proposed",
    "match_found",
    "match_cancelled",
    "rating_changed",
    "hint",
];

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(json: &str) -> Result<Frame, Failure> {
        classify(Some(Ok(Message::text(json.to_string()))))
    }

    #[test]
    fn the_protocol_guide_examples_read() {
        let decision = r#"{"type": "decision", "decision": 2000, "seat": 0, "purpose": "buy_phase", "prompt": {"kind": "buy_phase", "treasures": ["copper"], "buyable": ["copper", "curse"]}, "deadline_ms": 300000}"#;
        match frame(decision).unwrap() {
            Frame::Decision(d) => {
                assert_eq!(d.decision, 2000);
                assert_eq!(d.seat, 0);
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            frame(r#"{"type": "ack", "re": 4}"#).unwrap(),
            Frame::Ack
        ));
        assert!(matches!(
            frame(r#"{"type": "seated", "re": 1, "room": "pcpb5zka", "seat": 1, "token": "aa", "last_command": 0}"#).unwrap(),
            Frame::Seated { re: 1, seat: 1 }
        ));
        assert!(matches!(
            frame(r#"{"type": "error", "code": "too_many_rooms", "message": "full"}"#).unwrap(),
            Frame::Error {
                re: None,
                code: ErrorCode::TooManyRooms,
                ..
            }
        ));
    }

    #[test]
    fn bulky_and_unknown_frames_are_ignored_but_broken_known_ones_are_not() {
        assert!(matches!(
            frame(r#"{"type": "events", "first": 0, "events": [], "view": "not read"}"#).unwrap(),
            Frame::Ignored
        ));
        assert!(matches!(
            frame(r#"{"type": "fireworks", "colour": "red"}"#).unwrap(),
            Frame::Ignored
        ));
        assert!(frame(r#"{"type": "decision", "decision": "x"}"#).is_err());
        assert!(frame("not json").is_err());
    }

    #[test]
    fn a_close_frame_ends_with_its_code() {
        use tokio_tungstenite::tungstenite::protocol::CloseFrame;
        use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
        let close = Message::Close(Some(CloseFrame {
            code: CloseCode::Policy,
            reason: "message budget exceeded".into(),
        }));
        let err = classify(Some(Ok(close))).unwrap_err();
        assert!(err.to_string().contains("1008"), "{err}");
    }
}
