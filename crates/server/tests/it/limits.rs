//! Limits: oversized frames (1009), floods (1008), the handshake (4000, 4001), idle
//! connections (4002) and clients that stop reading (dropped) — while other rooms play on.

use crate::common::{Client, Closed, config, start, start_on};
use futures_util::SinkExt;
use serde_json::json;
use std::time::Duration;
use tokio_tungstenite::MaybeTlsStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::frame::Frame;
use tokio_tungstenite::tungstenite::protocol::frame::coding::{Data, OpCode};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn oversized_messages_and_floods_are_closed_while_another_room_plays_on() {
    let mut c = config();
    // A budget the paced player stays far inside (it sends at most 100 frames a second).
    c.rate_messages = 200;
    c.rate_window = Duration::from_secs(1);
    let addr = start(c).await;

    let mut player = Client::connect(addr, "Player").await;
    let room = player
        .create_room(json!([{"type": "open"}, {"type": "bot", "bot": "big_money"}]))
        .await;
    player.take_seat(&room).await;
    player.start().await;
    player.play_decisions(3).await;
    let game = tokio::spawn(async move { player.play_to_end(Duration::from_millis(10)).await });

    // 100 KiB in one frame.
    let mut big = Client::connect(addr, "Big").await;
    let payload = json!({"type": "ping", "id": 1, "pad": "x".repeat(100 * 1024)}).to_string();
    big.send_text(payload).await;
    let e = big.recv().await;
    assert_eq!(e["code"], "message_too_big", "{e}");
    assert_eq!(big.closed().await, Closed::Code(1009));

    // A thousand frames at once.
    let mut flood = Client::connect(addr, "Flood").await;
    for id in 1..=1000u64 {
        flood.send(json!({"type": "ping", "id": id})).await;
    }
    let mut pongs = 0;
    let closed = loop {
        match flood.recv_or_close().await {
            Ok(v) if v["type"] == "pong" => pongs += 1,
            Ok(v) => assert_eq!(v["code"], "rate_limited", "{v}"),
            Err(closed) => break closed,
        }
    };
    assert_eq!(closed, Closed::Code(1008));
    assert!(
        (100..1000).contains(&pongs),
        "{pongs} pongs before the budget ran out"
    );

    // The other room's game went on to its end, and the server still serves.
    let over = game.await.expect("the player's game");
    assert_eq!(over["type"], "game_over");
    let mut late = Client::connect(addr, "Late").await;
    assert_eq!(late.ask(json!({"type": "ping"})).await["type"], "pong");
}

#[tokio::test]
async fn the_handshake_names_the_version_and_comes_first() {
    let mut c = config();
    // Long enough that even a loaded machine sends its hello in time.
    c.handshake_timeout = Duration::from_secs(2);
    let addr = start(c).await;

    let mut future = Client::connect_raw(addr, "Future").await;
    future.send(json!({"type": "hello", "protocol": 99})).await;
    let e = future.recv().await;
    assert_eq!(e["code"], "unsupported_version", "{e}");
    assert!(e["message"].as_str().unwrap().contains("99"));
    assert_eq!(future.closed().await, Closed::Code(4000));

    let mut rude = Client::connect_raw(addr, "Rude").await;
    rude.send(json!({"type": "list_rooms", "id": 1})).await;
    let e = rude.recv().await;
    assert_eq!(e["code"], "handshake_required", "{e}");
    assert_eq!(rude.closed().await, Closed::Code(4001));

    // Silence: the error first (as docs/protocol.md says), then the close.
    let mut silent = Client::connect_raw(addr, "Silent").await;
    let e = silent
        .recv_or_close()
        .await
        .expect("handshake_required before 4001");
    assert_eq!(e["code"], "handshake_required", "{e}");
    assert_eq!(e["message"], "no hello within 2 s of connecting");
    assert_eq!(silent.closed().await, Closed::Code(4001));
}

#[tokio::test]
async fn idle_connections_are_dropped_and_live_ones_kept() {
    let mut c = config();
    c.heartbeat = Duration::from_millis(100);
    c.idle_timeout = Duration::from_secs(1);
    let addr = start(c).await;

    // Reading answers the server's pings (tungstenite does it), which keeps us alive
    // through more than two idle timeouts.
    let mut live = Client::connect(addr, "Live").await;
    let until = tokio::time::Instant::now() + Duration::from_millis(2500);
    while tokio::time::timeout_at(until, futures_util::StreamExt::next(&mut live.ws))
        .await
        .is_ok()
    {}
    assert_eq!(live.ask(json!({"type": "ping"})).await["type"], "pong");

    // Not reading at all means no pongs: the server gives up on us.
    let mut gone = Client::connect(addr, "Gone").await;
    tokio::time::sleep(Duration::from_millis(2500)).await;
    assert_eq!(gone.closed().await, Closed::Code(4002));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_stops_reading_is_dropped_without_delaying_the_game() {
    let mut c = config();
    c.outbound_queue = 8;
    // Small kernel buffers on both ends (accepted sockets inherit the listener's), so
    // that a client that does not read blocks the server's writes within a game.
    let listener = tokio::net::TcpSocket::new_v4().unwrap();
    listener.set_send_buffer_size(4096).unwrap();
    listener.bind("127.0.0.1:0".parse().unwrap()).unwrap();
    let addr = start_on(c, listener.listen(64).unwrap()).await;
    let mut player = Client::connect(addr, "Player").await;
    let room = player
        .create_room(json!([{"type": "open"}, {"type": "bot", "bot": "big_money"}]))
        .await;
    player.take_seat(&room).await;

    // A spectator with a tiny receive window, who never reads.
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(1024).unwrap();
    let tcp = socket.connect(addr).await.unwrap();
    let (ws, _) =
        tokio_tungstenite::client_async(format!("ws://{addr}/ws"), MaybeTlsStream::Plain(tcp))
            .await
            .unwrap();
    let mut stalled = Client::over(ws, "Stalled");
    stalled.send(json!({"type": "hello", "protocol": 1})).await;
    stalled
        .send(json!({"type": "spectate", "id": 1, "room": room}))
        .await;
    player
        .until(|v| v["type"] == "room" && v["room"]["spectators"] == 1)
        .await;

    player.start().await;
    let over = player.play_to_end(Duration::ZERO).await;
    assert_eq!(over["type"], "game_over");
    // The spectator was dropped: its stream ends without a close frame.
    assert_eq!(stalled.closed().await, Closed::Dropped);
}

/// A frame over the hard cap (16 × the message limit, at least 1 MiB) is refused from its
/// header, before its payload is read: the client still gets the error naming its size
/// and close 1009, not a reset.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_frame_over_the_hard_cap_is_closed_with_1009_not_reset() {
    let addr = start(config()).await;
    let mut huge = Client::connect(addr, "Huge").await;
    let payload = json!({"type": "ping", "id": 1, "pad": "x".repeat(3 << 20)}).to_string();
    let size = payload.len();
    // The send may fail once the server has closed; what the client reads is the point.
    let _ = tokio::time::timeout(
        Duration::from_secs(10),
        huge.ws.send(Message::text(payload)),
    )
    .await;
    let e = huge
        .recv_or_close()
        .await
        .expect("the error before the close");
    assert_eq!(e["code"], "message_too_big", "{e}");
    assert_eq!(
        e["message"],
        format!("a message of {size} bytes is over the limit of 65536 bytes")
    );
    assert_eq!(huge.closed().await, Closed::Code(1009));
}

/// A text frame whose payload is not UTF-8 gets `bad_message` and close 1007 (RFC 6455's
/// code for inconsistent payload data), and the server serves on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_text_frame_that_is_not_utf8_is_closed_with_1007() {
    let addr = start(config()).await;
    let mut bad = Client::connect(addr, "Bad").await;
    let frame = Frame::message(
        &b"{\"type\": \"ping\", \"id\": 1, \"x\": \"\xff\xfe\"}"[..],
        OpCode::Data(Data::Text),
        true,
    );
    bad.ws.send(Message::Frame(frame)).await.unwrap();
    let e = bad
        .recv_or_close()
        .await
        .expect("the error before the close");
    assert_eq!(e["code"], "bad_message", "{e}");
    assert_eq!(e["message"], "a text frame that is not valid UTF-8");
    assert_eq!(bad.closed().await, Closed::Code(1007));
    let mut next = Client::connect(addr, "Next").await;
    assert_eq!(next.ask(json!({"type": "ping"})).await["type"], "pong");
}
