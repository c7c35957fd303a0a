//! Forwarding: a client of this node playing in a room another node runs.
//!
//! The link is a WebSocket from this node to the owner's, speaking the public protocol:
//! this node says `hello` for the client, then sends the client's frames on as they
//! are, and queues the owner's frames to the client as they are. The owner sees an
//! ordinary client, so its per-viewer projection, checks and limits apply unchanged —
//! nothing secret crosses the link that the client would not receive anyway. The link
//! presents the cluster's key (`x-dominion-node-key`, known only to nodes, which read it
//! from the database they share) so the owner trusts the client address it carries
//! (`x-dominion-client-addr`) and counts the client under it for its per-address limits
//! (a link with a wrong key, or without an address, is refused: see `net::http`).
//!
//! A link closes as soon as its client leaves (the client's connection drops it first
//! thing), and ends as soon as the owner answers the close: neither node keeps the
//! connection after a clean close. The close linger only bounds a peer that never
//! answers.
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
/// The account id a forwarded client is signed in as (believed, like the address, only
/// with the cluster's key).
pub const ACCOUNT_HEADER: &str = "x-dominion-account";

/// How long opening the link (TCP, upgrade, hello) may take.
const OPEN_TIMEOUT: Duration = Duration::from_secs(2);
/// The longest a closing link waits for the owner's half of the close handshake. The
/// owner answers at once, which ends the link at once: this only bounds an owner that
/// does not answer.
const CLOSE_LINGER: Duration = Duration::from_secs(2);
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
        // Dropping `tx` makes the pump close the link at once, politely (it ends as soon
        // as the owner answers the close); the abort is only the backstop for an owner
        // that never answers, and does nothing to a pump that has ended.
        let pump = self.pump.abort_handle();
        tokio::spawn(async move {
            tokio::time::sleep(CLOSE_LINGER).await;
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
    /// The account the client is signed in as, which the owner signs the link in as.
    pub account: Option<i64>,
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
    /// The node running it answered, and refused this client (its answer): over the
    /// connection cap of the client's address, full, or a key that is not the
    /// cluster's. Not tried again.
    Refused(String),
}

/// Why a link could not be opened.
pub enum LinkError {
    /// The owner could not be reached, or the link failed: worth trying again.
    Failed(String),
    /// The owner answered the upgrade with a refusal (its text, for the client).
    Refused(String),
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
                    Err(LinkError::Refused(why)) => return Reached::Refused(why),
                    Err(LinkError::Failed(e)) => last_error = e,
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
) -> Result<Upstream, LinkError> {
    let LinkArgs {
        client_addr,
        account,
        protocol,
        first,
        conn,
        heartbeat,
    } = args;
    let (client_addr, protocol, first, heartbeat) = (*client_addr, *protocol, *first, *heartbeat);
    let failed = LinkError::Failed;
    let mut request = format!("ws://{addr}/ws")
        .into_client_request()
        .map_err(|e| failed(format!("bad node address {addr:?}: {e}")))?;
    let headers = request.headers_mut();
    headers.insert(
        NODE_KEY_HEADER,
        HeaderValue::from_str(key).map_err(|e| failed(e.to_string()))?,
    );
    // The owner counts the client under its own address, never under this node's.
    let client_addr = client_addr
        .ok_or_else(|| failed("the client's address is unknown: not forwarded".into()))?;
    headers.insert(
        CLIENT_ADDR_HEADER,
        HeaderValue::from_str(&client_addr.to_string()).map_err(|e| failed(e.to_string()))?,
    );
    if let Some(account) = account {
        headers.insert(
            ACCOUNT_HEADER,
            HeaderValue::from_str(&account.to_string()).map_err(|e| failed(e.to_string()))?,
        );
    }
    let hello = serde_json::to_string(&ClientMessage::Hello {
        protocol,
        client: Some(format!(
            "dominion-server {} (forwarding)",
            env!("CARGO_PKG_VERSION")
        )),
        token: None,
    })
    .map_err(|e| failed(e.to_string()))?;
    let opened = tokio::time::timeout(OPEN_TIMEOUT, async {
        let (mut ws, _) = tokio_tungstenite::connect_async(request)
            .await
            .map_err(|e| match e {
                tokio_tungstenite::tungstenite::Error::Http(answer) => {
                    let text = answer
                        .body()
                        .as_deref()
                        .map(String::from_utf8_lossy)
                        .unwrap_or_default();
                    tracing::info!(
                        node = owner,
                        status = answer.status().as_u16(),
                        "the room's node refused the link: {}",
                        text.trim_end()
                    );
                    LinkError::Refused(text.trim_end().to_string())
                }
                e => failed(format!("cannot reach node {owner} at {addr}: {e}")),
            })?;
        ws.send(Message::text(hello))
            .await
            .map_err(|e| failed(e.to_string()))?;
        loop {
            match ws.next().await {
                Some(Ok(Message::Text(text))) => {
                    match serde_json::from_str::<ServerMessage>(&text) {
                        Ok(ServerMessage::Welcome { .. }) => break,
                        _ => return Err(failed(format!("node {owner} refused the hello: {text}"))),
                    }
                }
                Some(Ok(_)) => {}
                Some(Err(e)) => return Err(failed(e.to_string())),
                None => return Err(failed(format!("node {owner} closed the link"))),
            }
        }
        ws.send(Message::text(first.to_string()))
            .await
            .map_err(|e| failed(e.to_string()))?;
        Ok::<_, LinkError>(ws)
    })
    .await
    .map_err(|_| {
        failed(format!(
            "node {owner} at {addr} did not answer within {OPEN_TIMEOUT:?}"
        ))
    })??;
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
                    // The client left this link (closed, or went to another room): close
                    // it now, and wait (bounded) for the owner's answer, which ends the
                    // owner's side of the connection at once too. What the owner still
                    // says meanwhile has nobody to go to.
                    let deadline = tokio::time::Instant::now() + CLOSE_LINGER;
                    let _ = tokio::time::timeout_at(deadline, sink.close()).await;
                    while let Ok(Some(Ok(msg))) = tokio::time::timeout_at(deadline, stream.next()).await {
                        if let Message::Close(_) = msg {
                            break;
                        }
                    }
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
