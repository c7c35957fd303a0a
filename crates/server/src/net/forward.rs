//! Forwarding: a client of this node playing in a room another node runs.
//!
//! The link is a WebSocket from this node to the owner's, speaking the public protocol:
//! this node says `hello` for the client, then sends the client's frames on as they
//! are, and queues the owner's frames to the client as they are. The owner sees an
//! ordinary client, so its per-viewer projection, checks and limits apply unchanged —
//! nothing secret crosses the link that the client would not receive anyway. The link
//! presents the cluster's key (`x-dominion-node-key`, known only to nodes, which share
//! Redis) so the owner trusts the client address it carries for its per-address limits.
//!
//! This node still applies its own checks first (budget, size, shape, command id:
//! `net::connection`); the link opens with `hello` at the client's protocol version,
//! then sends the client's `take_seat`, `resume` or `spectate`. After a `leave`, the
//! client's next `take_seat`, `resume` or `spectate` is routed afresh.
//!
//! When the owner goes away (killed, draining, its lease lost) the link closes the
//! client with the owner's close code — 1012 if there was none — and the client resumes
//! with its token, at whichever node runs the room next.

use crate::rooms::outbox::ConnHandle;
use crate::rooms::placement::{Placement, Route};
use crate::rooms::room::RoomHandle;
use dominion_protocol::{ClientMessage, CloseCode, ServerMessage};
use futures_util::{SinkExt, StreamExt};
use std::net::IpAddr;
use std::time::Duration;
use tokio::sync::mpsc;
use tokio::task::JoinHandle;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode as WsCode;

/// The header a forwarding node presents with the cluster's key.
pub const NODE_KEY_HEADER: &str = "x-dominion-node-key";
/// The header carrying the client's own address (trusted only with the key).
pub const CLIENT_ADDR_HEADER: &str = "x-dominion-client-addr";

/// How long opening the link (TCP, upgrade, hello) may take.
const OPEN_TIMEOUT: Duration = Duration::from_secs(2);
/// Client frames waiting for the link, at most.
const QUEUE: usize = 64;

/// The open link of one client connection.
pub struct Upstream {
    pub room: String,
    pub owner: String,
    tx: mpsc::Sender<String>,
    /// The client sent `leave`: its next `take_seat`, `resume` or `spectate` is routed
    /// afresh instead of forwarded.
    pub left: bool,
    pump: JoinHandle<()>,
}

impl Drop for Upstream {
    fn drop(&mut self) {
        // Dropping `tx` makes the pump close the link politely; abort is the backstop.
        let pump = self.pump.abort_handle();
        tokio::spawn(async move {
            tokio::time::sleep(Duration::from_secs(2)).await;
            pump.abort();
        });
    }
}

impl Upstream {
    /// Sends a client frame on to the owner. False when the link is gone.
    pub async fn send(&self, frame: &str) -> bool {
        self.tx.send(frame.to_string()).await.is_ok()
    }
}

/// What a link needs to know of the client it serves.
pub struct LinkArgs<'a> {
    /// The client's own address (for the owner's per-address limits).
    pub client_addr: Option<IpAddr>,
    /// The protocol version the client's hello named.
    pub protocol: u32,
    /// The client's `take_seat`, `resume` or `spectate`, as received.
    pub first: &'a str,
    pub conn: ConnHandle,
    /// How often to ping the owner (this node's `--heartbeat`).
    pub heartbeat: Duration,
}

/// Where a client's room was reached.
pub enum Reached {
    Local(RoomHandle),
    Linked(Upstream),
    /// No such live room.
    Unknown,
    /// It runs somewhere this node cannot reach (why).
    Unreachable(String),
}

/// Reaches `room` for a client: the room's handle if it runs here (taken over if need
/// be), or a link to the node that runs it. An owner that cannot be reached (killed,
/// its lease not yet expired) is tried again until its lease must have expired and the
/// room has been taken over.
pub async fn reach(placement: &dyn Placement, room: &str, link: LinkArgs<'_>) -> Reached {
    let deadline = tokio::time::Instant::now() + placement.reach_within();
    let mut last_error = String::new();
    loop {
        match placement.route(room).await {
            Route::Local(handle) => return Reached::Local(handle),
            Route::Unknown if last_error.is_empty() => return Reached::Unknown,
            Route::Unknown => return Reached::Unreachable(last_error),
            Route::Remote { node, addr } => {
                match open(&addr, &node, placement.node_key(), room, &link).await {
                    Ok(up) => return Reached::Linked(up),
                    Err(e) => last_error = e,
                }
            }
        }
        if tokio::time::Instant::now() >= deadline {
            return Reached::Unreachable(last_error);
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// Opens the link to the node `owner` at `addr` for a client and sends its first
/// command on it.
pub async fn open(
    addr: &str,
    owner: &str,
    key: &str,
    room: &str,
    args: &LinkArgs<'_>,
) -> Result<Upstream, String> {
    let LinkArgs {
        client_addr,
        protocol,
        first,
        conn,
        heartbeat,
    } = args;
    let (client_addr, protocol, first, heartbeat) = (*client_addr, *protocol, *first, *heartbeat);
    let mut request = format!("ws://{addr}/ws")
        .into_client_request()
        .map_err(|e| format!("bad node address {addr:?}: {e}"))?;
    let headers = request.headers_mut();
    headers.insert(
        NODE_KEY_HEADER,
        HeaderValue::from_str(key).map_err(|e| e.to_string())?,
    );
    if let Some(ip) = client_addr
        && let Ok(v) = HeaderValue::from_str(&ip.to_string())
    {
        headers.insert(CLIENT_ADDR_HEADER, v);
    }
    let hello = serde_json::to_string(&ClientMessage::Hello {
        protocol,
        client: Some(format!(
            "dominion-server {} (forwarding)",
            env!("CARGO_PKG_VERSION")
        )),
    })
    .map_err(|e| e.to_string())?;
    let opened = tokio::time::timeout(OPEN_TIMEOUT, async {
        let (mut ws, _) = tokio_tungstenite::connect_async(request)
            .await
            .map_err(|e| format!("cannot reach node {owner} at {addr}: {e}"))?;
        ws.send(Message::text(hello))
            .await
            .map_err(|e| e.to_string())?;
        loop {
            match ws.next().await {
                Some(Ok(Message::Text(text))) => {
                    match serde_json::from_str::<ServerMessage>(&text) {
                        Ok(ServerMessage::Welcome { .. }) => break,
                        _ => return Err(format!("node {owner} refused the hello: {text}")),
                    }
                }
                Some(Ok(_)) => {}
                Some(Err(e)) => return Err(e.to_string()),
                None => return Err(format!("node {owner} closed the link")),
            }
        }
        ws.send(Message::text(first.to_string()))
            .await
            .map_err(|e| e.to_string())?;
        Ok::<_, String>(ws)
    })
    .await
    .map_err(|_| format!("node {owner} at {addr} did not answer within {OPEN_TIMEOUT:?}"))??;
    if let Ok(stream) = opened.get_ref().get_ref_tcp() {
        let _ = stream.set_nodelay(true);
    }
    let (tx, rx) = mpsc::channel(QUEUE);
    let pump = tokio::spawn(pump(opened, rx, conn.clone(), heartbeat));
    Ok(Upstream {
        room: room.to_string(),
        owner: owner.to_string(),
        tx,
        left: false,
        pump,
    })
}

/// The plain TCP stream under a client WebSocket, to turn Nagle off.
trait TcpOf {
    fn get_ref_tcp(&self) -> Result<&tokio::net::TcpStream, ()>;
}

impl TcpOf for tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream> {
    fn get_ref_tcp(&self) -> Result<&tokio::net::TcpStream, ()> {
        match self {
            tokio_tungstenite::MaybeTlsStream::Plain(s) => Ok(s),
            _ => Err(()),
        }
    }
}

type Link =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// Carries frames both ways until either side ends; then closes the other.
async fn pump(
    link: Link,
    mut from_client: mpsc::Receiver<String>,
    conn: ConnHandle,
    heartbeat: Duration,
) {
    let (mut sink, mut stream) = link.split();
    // The owner's idle timeout counts frames from us: ping it as the client pings us.
    let period = if heartbeat.is_zero() {
        Duration::from_secs(30)
    } else {
        heartbeat
    };
    let mut ping = tokio::time::interval_at(tokio::time::Instant::now() + period, period);
    let gone = "the server running this room went away; reconnect and resume with your token";
    loop {
        tokio::select! {
            frame = from_client.recv() => match frame {
                Some(text) => {
                    if sink.send(Message::text(text)).await.is_err() {
                        conn.close(CloseCode::ServiceRestart, gone);
                        return;
                    }
                }
                None => {
                    // The client left this link (closed, or went to another room).
                    let _ = sink.close().await;
                    return;
                }
            },
            msg = stream.next() => match msg {
                Some(Ok(Message::Text(text))) => {
                    if !conn.send_text(text.to_string()) {
                        let _ = sink.close().await;
                        return;
                    }
                }
                Some(Ok(Message::Close(frame))) => {
                    // Complete the close handshake (tungstenite queued the answer), so
                    // the owner does not wait for it.
                    let _ = sink.close().await;
                    let (code, reason) = match frame {
                        Some(f) => (close_code(f.code), f.reason.to_string()),
                        None => (CloseCode::ServiceRestart, gone.to_string()),
                    };
                    conn.close(code, if reason.is_empty() { gone } else { &reason });
                    return;
                }
                Some(Ok(_)) => {}
                Some(Err(_)) | None => {
                    conn.close(CloseCode::ServiceRestart, gone);
                    return;
                }
            },
            _ = ping.tick() => {
                if sink.send(Message::Ping(Default::default())).await.is_err() {
                    conn.close(CloseCode::ServiceRestart, gone);
                    return;
                }
            }
        }
    }
}

/// The owner's close code, as this node closes the client: the same, where the protocol
/// has it; otherwise 1012 (resume).
fn close_code(code: WsCode) -> CloseCode {
    match u16::from(code) {
        1000 => CloseCode::Normal,
        1007 => CloseCode::InvalidPayload,
        1008 => CloseCode::PolicyViolation,
        1009 => CloseCode::MessageTooBig,
        4000 => CloseCode::UnsupportedVersion,
        4001 => CloseCode::HandshakeRequired,
        4002 => CloseCode::IdleTimeout,
        4003 => CloseCode::TooSlow,
        4004 => CloseCode::Replaced,
        _ => CloseCode::ServiceRestart,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn close_codes_pass_through_and_the_unknown_become_resume() {
        assert_eq!(close_code(WsCode::from(4004)), CloseCode::Replaced);
        assert_eq!(close_code(WsCode::from(1012)), CloseCode::ServiceRestart);
        assert_eq!(close_code(WsCode::from(1011)), CloseCode::ServiceRestart);
        assert_eq!(close_code(WsCode::from(1008)), CloseCode::PolicyViolation);
    }
}
