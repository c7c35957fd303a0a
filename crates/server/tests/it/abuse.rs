//! The abuse cases of issue 10, each against a real server on 127.0.0.1: room creation
//! in a loop, half-sent and silent HTTP requests, clients that ask for big answers and
//! never read, and what `/metrics` shows to more than one scraper.

use crate::common::{Client, Closed, config, start};
use crate::process::{http_get, try_http_get};
use serde_json::json;
use std::net::SocketAddr;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

fn settings() -> serde_json::Value {
    json!({
        "kingdom": {"type": "recommended", "id": "base_2e/first_game"},
        "seats": [{"type": "open"}, {"type": "bot", "bot": "big_money"}],
    })
}

/// One connection creating rooms in a loop is refused after `--rooms-per-connection`;
/// another connection from the same address after `--rooms-per-address` in all. A
/// refused `create_room` creates nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn room_creation_is_limited_per_connection_and_per_address() {
    let mut c = config();
    c.rooms_per_connection = 3;
    c.rooms_per_address = 5;
    let addr = start(c).await;

    let mut first = Client::connect(addr, "First").await;
    for _ in 0..3 {
        let r = first
            .ask(json!({"type": "create_room", "settings": settings()}))
            .await;
        assert_eq!(r["type"], "room_created", "{r}");
    }
    let r = first
        .ask(json!({"type": "create_room", "settings": settings()}))
        .await;
    assert_eq!(r["code"], "too_many_rooms", "{r}");
    assert_eq!(
        r["message"],
        "this connection created 3 rooms within a minute; wait before creating another"
    );

    let mut second = Client::connect(addr, "Second").await;
    for _ in 0..2 {
        let r = second
            .ask(json!({"type": "create_room", "settings": settings()}))
            .await;
        assert_eq!(r["type"], "room_created", "{r}");
    }
    let r = second
        .ask(json!({"type": "create_room", "settings": settings()}))
        .await;
    assert_eq!(r["code"], "too_many_rooms", "{r}");
    assert_eq!(
        r["message"],
        "your address created 5 rooms within a minute; wait before creating another"
    );

    let (status, rooms) = http_get(addr, "/api/rooms").await;
    assert_eq!(status, 200);
    let rooms: serde_json::Value = serde_json::from_str(&rooms).unwrap();
    assert_eq!(rooms.as_array().unwrap().len(), 5, "{rooms}");
    let (_, metrics) = http_get(addr, "/metrics").await;
    assert!(
        metrics.contains("dominion_rooms_created_total 5\n"),
        "{metrics}"
    );
    assert!(
        metrics.contains("dominion_rooms_refused_total 2\n"),
        "{metrics}"
    );
}

/// Reads until the server closes the connection; what it sent before closing.
async fn read_until_closed(s: &mut TcpStream, within: Duration) -> Result<String, String> {
    let mut buf = Vec::new();
    match tokio::time::timeout(within, s.read_to_end(&mut buf)).await {
        Ok(Ok(_)) => Ok(String::from_utf8_lossy(&buf).into_owned()),
        // A reset is a close too (the server may close with our bytes unread).
        Ok(Err(e)) if e.kind() == std::io::ErrorKind::ConnectionReset => {
            Ok(String::from_utf8_lossy(&buf).into_owned())
        }
        Ok(Err(e)) => Err(format!("read: {e}")),
        Err(_) => Err(format!("still open after {within:?}")),
    }
}

/// Every accepted TCP connection counts against `--max-connections` from accept on, so
/// silent and half-sent requests cannot exhaust the server; each is closed after
/// `--header-timeout`, and then the server serves again. Beyond the limit only
/// `/healthz` and `/metrics` are answered (from a small reserve: issue 23).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn silent_and_half_sent_requests_count_and_are_timed_out() {
    let mut c = config();
    c.max_connections = 4;
    c.header_timeout = Duration::from_secs(2);
    let addr = start(c).await;

    let mut held = Vec::new();
    for i in 0..4 {
        let mut s = TcpStream::connect(addr).await.unwrap();
        if i % 2 == 0 {
            // Half a request head, then nothing.
            s.write_all(b"GET /healthz HTTP/1.1\r\nHo").await.unwrap();
        }
        held.push(s);
    }
    // The limit is full of them: the next request is refused at once with a 503,
    // unless it asks for health.
    let mut refused = TcpStream::connect(addr).await.unwrap();
    refused
        .write_all(b"GET /api/rooms HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .unwrap();
    let said = read_until_closed(&mut refused, Duration::from_secs(30))
        .await
        .expect("closed at once");
    assert!(said.starts_with("HTTP/1.1 503"), "refused: {said:?}");
    let (status, body) = http_get(addr, "/healthz").await;
    assert_eq!(status, 200, "health is answered from the reserve: {body}");
    // Each held one is closed once its header time is up, without an answer.
    for mut s in held {
        let said = read_until_closed(&mut s, Duration::from_secs(30))
            .await
            .expect("closed after the header timeout");
        assert!(!said.starts_with("HTTP/1.1 200"), "{said:?}");
    }
    // Then the server answers again.
    let mut answered = None;
    for _ in 0..50 {
        if let Ok((200, body)) = try_http_get(addr, "/api/rooms").await {
            answered = Some(body);
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(answered.as_deref(), Some("[]"));
    let (_, metrics) = http_get(addr, "/metrics").await;
    assert!(
        !metrics.contains("dominion_connections_refused_total 0\n"),
        "the refusal is counted: {metrics}"
    );
}

/// Clients that ask for the room list again and again and never read are dropped once
/// their queue holds `--outbound-bytes`, well before `--outbound-queue` frames, and a
/// reading client is served throughout.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clients_that_never_read_big_answers_are_dropped_at_the_byte_bound() {
    let mut c = config();
    c.outbound_bytes = 64 * 1024;
    c.outbound_queue = 100_000;
    let addr = start(c).await;
    // Rooms enough for a room list of a few kB.
    let mut maker = Client::connect(addr, "Maker").await;
    for _ in 0..20 {
        let r = maker
            .ask(json!({"type": "create_room", "settings": settings()}))
            .await;
        assert_eq!(r["type"], "room_created", "{r}");
    }
    let list = maker.ask(json!({"type": "list_rooms"})).await;
    let one = list.to_string().len();
    assert!(one > 2000, "a room list of {one} bytes");

    // A client with a tiny receive window that sends list_rooms and never reads: at
    // most 64 KiB queue up (plus what the kernel buffers hold), then it is dropped.
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(1024).unwrap();
    let tcp = socket.connect(addr).await.unwrap();
    let (ws, _) = tokio_tungstenite::client_async(
        format!("ws://{addr}/ws"),
        tokio_tungstenite::MaybeTlsStream::Plain(tcp),
    )
    .await
    .unwrap();
    let mut greedy = Client::over(ws, "Greedy");
    greedy.send(json!({"type": "hello", "protocol": 1})).await;
    // Enough asks that their answers far exceed the byte bound and the kernel buffers.
    let asks = (8 << 20) / one + 1;
    let mut sent = 0;
    for id in 1..=asks as u64 {
        use futures_util::SinkExt;
        let frame = json!({"type": "list_rooms", "id": id}).to_string();
        let send = greedy
            .ws
            .send(tokio_tungstenite::tungstenite::Message::text(frame));
        match tokio::time::timeout(Duration::from_secs(5), send).await {
            Ok(Ok(())) => sent += 1,
            // The server dropped us (or stopped reading us): that is the point.
            _ => break,
        }
    }
    // The reading client is served meanwhile.
    assert_eq!(maker.ask(json!({"type": "ping"})).await["type"], "pong");
    // The greedy one is gone: reading now yields what was buffered, then the end.
    let mut frames = 0;
    let closed = loop {
        match greedy.recv_or_close().await {
            Ok(_) => frames += 1,
            Err(closed) => break closed,
        }
    };
    assert!(
        matches!(closed, Closed::Dropped | Closed::Code(4003)),
        "{closed:?}"
    );
    assert!(
        frames < sent,
        "dropped before every answer was sent: {frames} of {sent}"
    );
    let (_, metrics) = http_get(addr, "/metrics").await;
    assert!(
        metrics.contains("dominion_closes_total{reason=\"too_slow\"} 1\n"),
        "{metrics}"
    );
}

/// `/metrics` holds counters: two scrapes in a row read the same values (no rate that a
/// scrape resets). With `--metrics-addr` it is served there and not on the main address.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_are_counters_and_can_live_on_their_own_address() {
    let addr = start(config()).await;
    let mut player = Client::connect(addr, "Player").await;
    let room = player
        .create_room(json!([{"type": "open"}, {"type": "bot", "bot": "big_money"}]))
        .await;
    player.take_seat(&room).await;
    player.start().await;
    player.play_decisions(5).await;
    // The bot has played on to the player's next decision: nothing moves until a reply.
    player.until(|v| v["type"] == "decision").await;
    let counters = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|l| l.contains("_total") && !l.starts_with('#'))
            .map(String::from)
            .collect()
    };
    let (_, a) = http_get(addr, "/metrics").await;
    let (_, b) = http_get(addr, "/metrics").await;
    assert!(!a.contains("per_second"), "no rates: {a}");
    assert!(a.contains("dominion_replies_total "), "{a}");
    // Each scrape is itself an accepted connection: compare everything else.
    let not_accept = |v: Vec<String>| -> Vec<String> {
        v.into_iter()
            .filter(|l| !l.starts_with("dominion_connections_accepted_total"))
            .collect()
    };
    assert_eq!(not_accept(counters(&a)), not_accept(counters(&b)));

    // Its own address: a free port, found by binding and letting go.
    let free: SocketAddr = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap();
    let mut c = config();
    c.metrics_addr = Some(free.to_string());
    let main = start(c).await;
    let (status, _) = http_get(main, "/metrics").await;
    assert_eq!(status, 404, "not on the main address");
    let (status, text) = http_get(free, "/metrics").await;
    assert_eq!(status, 200);
    assert!(
        text.contains("dominion_connections_accepted_total"),
        "{text}"
    );
    let (status, _) = http_get(main, "/healthz").await;
    assert_eq!(status, 200);
}

/// Names that would hide or reorder text are refused, naming the code point; a name of
/// blanks only too. Room names follow the same rule.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn names_with_invisible_or_bidirectional_characters_are_refused() {
    let addr = start(config()).await;
    let mut c = Client::connect(addr, "Names").await;
    let room = c
        .create_room(json!([{"type": "open"}, {"type": "bot", "bot": "big_money"}]))
        .await;
    for (name, says) in [
        ("Ann\u{202E}nimda", "U+202E"),
        ("\u{200B}", "U+200B"),
        ("\u{3164}\u{3164}", "U+3164"),
        ("\u{0301}", "no visible character"),
    ] {
        let e = c
            .ask(json!({"type": "take_seat", "room": room, "name": name}))
            .await;
        assert_eq!(e["code"], "invalid_name", "{name:?}: {e}");
        assert!(
            e["message"].as_str().unwrap().contains(says),
            "{name:?}: {e}"
        );
    }
    let mut settings = settings();
    settings["name"] = json!("Room\u{2066}");
    let e = c
        .ask(json!({"type": "create_room", "settings": settings}))
        .await;
    assert_eq!(e["code"], "invalid_settings", "{e}");
    assert!(e["message"].as_str().unwrap().contains("U+2066"), "{e}");
    let seated = c
        .ask(json!({"type": "take_seat", "room": room, "name": "Åsa 🙂"}))
        .await;
    assert_eq!(seated["type"], "seated", "{seated}");
}
