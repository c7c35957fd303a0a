//! Connection fairness (issue 23, finding 2), on real sockets from several loopback
//! addresses (127.0.0.x: Linux routes all of 127/8 to lo).

use crate::common::{Client, config, start};
use serde_json::json;
use std::net::SocketAddr;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

/// A TCP connection to `addr` from the loopback address 127.0.0.`host`.
pub(crate) async fn tcp_from(host: u8, addr: SocketAddr) -> std::io::Result<TcpStream> {
    let socket = TcpSocket::new_v4()?;
    socket.bind(SocketAddr::from(([127, 0, 0, host], 0)))?;
    socket.connect(addr).await
}

/// Whether the server refused a fresh connection at once (an answer or a close within
/// `within`) rather than holding it open, waiting for its request.
async fn refused_at_once(s: &mut TcpStream, within: Duration) -> bool {
    let mut buf = [0u8; 256];
    tokio::time::timeout(within, s.read(&mut buf)).await.is_ok()
}

/// `GET path` from 127.0.0.`host`: the status and body.
pub(crate) async fn get_from(
    host: u8,
    addr: SocketAddr,
    path: &str,
) -> Result<(u16, String), String> {
    let mut s = tcp_from(host, addr)
        .await
        .map_err(|e| format!("connect: {e}"))?;
    let req = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    s.write_all(req.as_bytes())
        .await
        .map_err(|e| format!("write: {e}"))?;
    let mut buf = Vec::new();
    match tokio::time::timeout(Duration::from_secs(10), s.read_to_end(&mut buf)).await {
        Ok(Ok(_)) => {}
        Ok(Err(e)) if e.kind() == std::io::ErrorKind::ConnectionReset && !buf.is_empty() => {}
        Ok(Err(e)) => return Err(format!("read: {e}")),
        Err(_) => return Err("no answer within 10 s".into()),
    }
    crate::process::parse_response(&buf)
}

/// A WebSocket client from 127.0.0.`host`, greeted (hello/welcome).
pub(crate) async fn ws_from(host: u8, addr: SocketAddr, name: &str) -> Result<Client, String> {
    let tcp = tcp_from(host, addr)
        .await
        .map_err(|e| format!("connect: {e}"))?;
    let (ws, _) = tokio_tungstenite::client_async(
        format!("ws://{addr}/ws"),
        tokio_tungstenite::MaybeTlsStream::Plain(tcp),
    )
    .await
    .map_err(|e| format!("upgrade: {e}"))?;
    let mut c = Client::over(ws, name);
    c.send(json!({"type": "hello", "protocol": 1})).await;
    match c.recv_or_closed().await {
        Ok(v) if v["type"] == "welcome" => Ok(c),
        other => Err(format!("no welcome: {other:?}")),
    }
}

/// One address opening connection after connection gets at most
/// `--connections-per-address` of them (idle TCP connections count from accept, as for
/// `--max-connections`), while another address still gets `/healthz` and WebSockets.
/// Before the cap, 127.0.0.2 held all 40 slots and 127.0.0.3 got neither.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_address_cannot_take_every_connection_slot() {
    let mut c = config();
    c.max_connections = 40;
    c.connections_per_address = 12;
    let addr = start(c).await;

    // 127.0.0.2 opens 60 idle connections, holding every one the server keeps.
    let mut held = Vec::new();
    let mut refused = Vec::new();
    for _ in 0..60 {
        let mut s = tcp_from(2, addr).await.expect("connect");
        if refused_at_once(&mut s, Duration::from_millis(200)).await {
            refused.push(s);
        } else {
            held.push(s);
        }
    }
    eprintln!(
        "127.0.0.2: {} of 60 connections held, {} refused",
        held.len(),
        refused.len()
    );
    assert_eq!((held.len(), refused.len()), (12, 48));
    // A refused one is told why (the first bytes were read above; ask again).
    let (status, body) = get_from(2, addr, "/healthz").await.expect("an answer");
    assert_eq!(status, 503);
    assert_eq!(
        body,
        "too many connections from your address; try again later\n"
    );

    // Another address meanwhile: health, and WebSockets that play.
    let mut health = 0;
    let mut players = Vec::new();
    for i in 0..5 {
        if let Ok((200, body)) = get_from(3, addr, "/healthz").await {
            assert!(body.starts_with("ok "), "{body}");
            health += 1;
        }
        let mut p = ws_from(3, addr, &format!("Other{i}"))
            .await
            .expect("a WebSocket");
        assert_eq!(p.ask(json!({"type": "ping"})).await["type"], "pong");
        players.push(p);
    }
    eprintln!(
        "127.0.0.3: /healthz answered {health} of 5, {} WebSockets of 5",
        players.len()
    );
    assert_eq!(health, 5);
    // The attacker's slots come back as its connections close.
    drop(held);
    let mut again = None;
    for _ in 0..100 {
        if let Ok(s) = ws_from(2, addr, "Back").await {
            again = Some(s);
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(again.is_some(), "127.0.0.2 is served again once it lets go");
    let (_, metrics) = get_from(4, addr, "/metrics").await.unwrap();
    let refused: u64 = metrics
        .lines()
        .find_map(|l| l.strip_prefix("dominion_connections_refused_total "))
        .and_then(|v| v.trim().parse::<f64>().ok())
        .unwrap_or_else(|| panic!("{metrics}")) as u64;
    // 48 + the GET; a retry above may have come before the held ones were let go.
    assert!(refused >= 49, "every refusal is counted: {refused}");
}

/// With every public slot taken (by several addresses, each within its cap),
/// `/healthz` and `/metrics` are still answered from a small reserve of their own, and
/// anything else is refused; with `--metrics-addr`, that address answers whatever the
/// public one holds. Before: 503 for all of them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn health_and_metrics_are_answered_with_the_public_slots_full() {
    let mut c = config();
    c.max_connections = 6;
    c.connections_per_address = 2;
    let addr = start(c).await;
    let mut held = Vec::new();
    for host in 2..=4 {
        for _ in 0..2 {
            let mut s = tcp_from(host, addr).await.unwrap();
            assert!(!refused_at_once(&mut s, Duration::from_millis(200)).await);
            held.push(s);
        }
    }
    let health = get_from(5, addr, "/healthz").await;
    let metrics = get_from(5, addr, "/metrics").await;
    let rooms = get_from(5, addr, "/api/rooms").await;
    let socket = ws_from(5, addr, "Late").await.map(|_| ());
    eprintln!(
        "slots full: /healthz {:?}, /metrics {:?}, /api/rooms {:?}, WebSocket {socket:?}",
        health.as_ref().map(|r| r.0),
        metrics.as_ref().map(|r| r.0),
        rooms.as_ref().map(|r| r.0)
    );
    let (status, body) = health.unwrap();
    assert_eq!(status, 200);
    assert!(body.starts_with("ok "), "{body}");
    let (status, body) = metrics.unwrap();
    assert_eq!(status, 200);
    assert!(body.contains("dominion_connections_open"), "{body}");
    assert_eq!(
        rooms.unwrap(),
        (503, "too many connections; try again later\n".to_string())
    );
    assert!(socket.is_err(), "no WebSocket from the reserve");
    drop(held);

    // The metrics address, with every public slot a WebSocket.
    let free: SocketAddr = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap();
    let mut c = config();
    c.max_connections = 3;
    c.metrics_addr = Some(free.to_string());
    let addr = start(c).await;
    let mut players = Vec::new();
    for host in 2..=4 {
        players.push(ws_from(host, addr, "P").await.unwrap());
    }
    assert!(
        ws_from(5, addr, "Fourth").await.is_err(),
        "the public slots are full"
    );
    let metrics = get_from(5, free, "/metrics").await;
    let health = get_from(5, free, "/healthz").await.map(|(s, _)| s);
    eprintln!(
        "WebSockets full: metrics address /metrics {:?}, /healthz {health:?}",
        metrics.as_ref().map(|r| r.0)
    );
    let (status, body) = metrics.unwrap();
    assert_eq!(status, 200);
    assert!(body.contains("dominion_connections_open 3\n"), "{body}");
    assert_eq!(health, Ok(200));
}

/// A client that closes cleanly gets the server's half of the close handshake, and its
/// connection is let go at once. Before: 2.01–2.03 s (the close linger).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_closes_is_answered_and_let_go_at_once() {
    use futures_util::StreamExt;
    let addr = start(config()).await;
    let open = |text: &str| -> Option<u64> {
        text.lines()
            .find_map(|l| l.strip_prefix("dominion_connections_open "))
            .and_then(|v| v.trim().parse::<f64>().ok())
            .map(|v| v as u64)
    };
    let mut figures = Vec::new();
    for i in 0..3 {
        let mut c = Client::connect(addr, &format!("Leaver{i}")).await;
        assert_eq!(c.ask(json!({"type": "ping"})).await["type"], "pong");
        let closing = Instant::now();
        c.ws.close(None).await.unwrap();
        // The server's close frame comes back (a reset would be an error here).
        let answer = tokio::time::timeout(Duration::from_secs(5), c.ws.next()).await;
        assert!(
            matches!(
                answer,
                Ok(Some(Ok(tokio_tungstenite::tungstenite::Message::Close(_))) | None)
            ),
            "{answer:?}"
        );
        let gone = loop {
            let (_, metrics) = crate::process::http_get(addr, "/metrics").await;
            if open(&metrics) == Some(0) {
                break closing.elapsed();
            }
            assert!(closing.elapsed() < Duration::from_secs(10), "{metrics}");
            tokio::time::sleep(Duration::from_millis(5)).await;
        };
        figures.push(gone);
    }
    eprintln!("a client closed: its connection let go after {figures:?}");
    for gone in figures {
        // Not a speed target: far under the 2 s linger it used to wait.
        assert!(gone < Duration::from_millis(1500), "{gone:?}");
    }
}

/// Waits (at most `limit`) until `node`'s `dominion_connections_open` is `want`; how long
/// it took, or None.
async fn open_connections_reach(
    node: &crate::process::ServerProcess,
    want: u64,
    limit: Duration,
) -> Option<Duration> {
    let started = Instant::now();
    loop {
        if crate::cluster::metric(node, "dominion_connections_open").await == want {
            return Some(started.elapsed());
        }
        if started.elapsed() > limit {
            return None;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

/// A client of one node watching a room of another leaves (a clean close): the link
/// to the room's node closes at once, on both nodes, instead of lingering. Before: the
/// room's node held the link about 4 s (a 2 s linger on each node).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_forwarded_client_leaving_frees_the_owner_s_connection_at_once() {
    let mut env = crate::cluster::Backends::start();
    let nodes = [env.node("n0").await, env.node("n1").await];
    let mut host = Client::connect(nodes[0].addr, "Host").await;
    let room = host
        .create_room(json!([{"type": "open"}, {"type": "open"}]))
        .await;
    host.ws.close(None).await.unwrap();
    drop(host);
    crate::cluster::wait_listed(nodes[1].addr, &[&room]).await;
    for n in &nodes {
        open_connections_reach(n, 0, Duration::from_secs(10))
            .await
            .expect("idle nodes");
    }
    let mut figures = Vec::new();
    for i in 0..3 {
        let mut watcher = ws_from(2, nodes[1].addr, &format!("Watcher{i}"))
            .await
            .unwrap();
        let watching = watcher.ask(json!({"type": "spectate", "room": room})).await;
        assert_eq!(watching["type"], "spectating", "{watching}");
        open_connections_reach(&nodes[0], 1, Duration::from_secs(10))
            .await
            .expect("the link is open at the room's node");
        let left = Instant::now();
        watcher.ws.close(None).await.unwrap();
        let owner = open_connections_reach(&nodes[0], 0, Duration::from_secs(10)).await;
        let forwarder = open_connections_reach(&nodes[1], 0, Duration::from_secs(10)).await;
        figures.push((owner, forwarder, left.elapsed()));
    }
    eprintln!(
        "a forwarded client left: (owner's connection gone after, forwarding node's, total) {figures:?}"
    );
    for (owner, forwarder, total) in figures {
        assert!(owner.is_some() && forwarder.is_some(), "both closed");
        // Not a speed target: well under the 2 s close linger a clean close used to
        // wait on each node (4 s in all before).
        assert!(
            total < Duration::from_millis(1500),
            "the link lingered {total:?}"
        );
    }
}

/// Redis loses everything and one node restarts: the nodes still agree on the cluster's
/// key (it lives in the database), so the room's node still counts each forwarded
/// client under its own address — for `--rooms-per-address` and for
/// `--connections-per-address` — and not all of them under the forwarding node's.
/// Before: 0 of 2 forwarded clients could create a room.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forwarded_clients_keep_their_own_addresses_after_redis_is_wiped() {
    let mut env = crate::cluster::Backends::start();
    let mut nodes = [
        env.node_with(
            "n0",
            &["--rooms-per-address", "1", "--connections-per-address", "3"],
        )
        .await,
        env.node("n1").await,
    ];
    assert_eq!(
        crate::cluster::redis_command(env.redis.port(), "FLUSHALL"),
        "+OK"
    );
    nodes[1].kill();
    nodes[1] = env.node("n1").await;
    let mut host = Client::connect(nodes[0].addr, "Host").await;
    let room = host
        .create_room(json!([{"type": "open"}, {"type": "open"}]))
        .await;
    crate::cluster::wait_listed(nodes[1].addr, &[&room]).await;
    let mut created = 0;
    for host in [2, 3] {
        let mut c = ws_from(host, nodes[1].addr, "Fwd").await.unwrap();
        let watching = c.ask(json!({"type": "spectate", "room": room})).await;
        assert_eq!(watching["type"], "spectating", "{watching}");
        // Through the link: the room's node answers, under the address it counts.
        let answer = c
            .ask(json!({"type": "create_room", "settings": {
                "kingdom": {"type": "recommended", "id": "base_2e/first_game"},
                "seats": [{"type": "open"}, {"type": "open"}],
            }}))
            .await;
        eprintln!("127.0.0.{host} through n1: {answer}");
        if answer["type"] == "room_created" {
            created += 1;
        }
    }
    eprintln!("forwarded clients that could create a room: {created} of 2");
    assert_eq!(created, 2, "each counted under its own address");

    // The connection cap too: 127.0.0.4 gets 3 links to n0 through n1, not a 4th, while
    // 127.0.0.5 still gets in (the links come from n1's address, 127.0.0.1).
    host.ws.close(None).await.unwrap();
    let mut watchers = Vec::new();
    for i in 0..4 {
        let mut w = ws_from(4, nodes[1].addr, &format!("W{i}")).await.unwrap();
        let answer = w.ask(json!({"type": "spectate", "room": room})).await;
        watchers.push((w, answer));
    }
    let answers: Vec<&serde_json::Value> = watchers.iter().map(|(_, a)| a).collect();
    eprintln!("127.0.0.4 through n1, four times: {answers:?}");
    assert!(
        answers[..3].iter().all(|a| a["type"] == "spectating"),
        "{answers:?}"
    );
    assert_eq!(answers[3]["type"], "error");
    assert!(
        answers[3]["message"]
            .as_str()
            .unwrap()
            .contains("too many connections from your address"),
        "{}",
        answers[3]
    );
    let mut other = ws_from(5, nodes[1].addr, "Other").await.unwrap();
    let answer = other.ask(json!({"type": "spectate", "room": room})).await;
    assert_eq!(answer["type"], "spectating", "{answer}");

    // A link with a key that is not the cluster's is refused, not served as a client
    // of the forwarding node's address.
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let mut request = format!("ws://{}/ws", nodes[0].addr)
        .into_client_request()
        .unwrap();
    let headers = request.headers_mut();
    headers.insert("x-dominion-node-key", "not-the-key".parse().unwrap());
    headers.insert("x-dominion-client-addr", "127.0.0.9".parse().unwrap());
    match tokio_tungstenite::connect_async(request).await {
        Err(tokio_tungstenite::tungstenite::Error::Http(response)) => {
            assert_eq!(response.status(), 403)
        }
        other => panic!("a wrong key was not refused: {:?}", other.map(|_| ())),
    }
}
