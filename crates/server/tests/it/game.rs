//! A whole game through the protocol.

use crate::common::{Client, config, start};
use serde_json::json;
use std::time::Duration;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_clients_and_a_bot_play_a_three_player_game_to_the_end() {
    let addr = start(config()).await;
    let mut ann = Client::connect(addr, "Ann").await;
    let room = ann
        .create_room(json!([{"type": "open"}, {"type": "open"}, {"type": "bot", "bot": "militia"}]))
        .await;
    assert_eq!(ann.take_seat(&room).await, 0);
    let mut bob = Client::connect(addr, "Bob").await;
    assert_eq!(bob.take_seat(&room).await, 1);

    // The room is listed over HTTP and over the socket.
    let listed = bob.ask(json!({"type": "list_rooms"})).await;
    assert_eq!(listed["type"], "room_list");
    assert!(
        listed["rooms"]
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r["id"] == room)
    );

    ann.start().await;
    let (ann_over, bob_over) = tokio::join!(
        async {
            let over = ann.play_to_end(Duration::ZERO).await;
            (ann, over)
        },
        async {
            let over = bob.play_to_end(Duration::ZERO).await;
            (bob, over)
        }
    );
    let ((ann, a), (bob, b)) = (ann_over, bob_over);
    assert_eq!(a, b, "everyone gets the same result");
    let scores = a["scores"].as_array().unwrap();
    assert_eq!(scores.len(), 3);
    assert!(scores.iter().any(|s| s["winner"] == true));
    let decks = a["decks"].as_array().unwrap();
    assert_eq!(decks.len(), 3);
    assert_eq!(decks[0]["name"], "Ann");
    assert_eq!(decks[1]["name"], "Bob");
    for d in decks {
        assert!(d["cards"].as_array().unwrap().len() >= 10, "{d}");
    }
    assert!(a["seed"].as_str().unwrap().parse::<u64>().is_ok());
    assert!(!a["replies"].as_array().unwrap().is_empty());
    for c in [&ann, &bob] {
        assert!(c.frames.iter().any(|f| f.contains(r#""type":"decision""#)));
    }
    // Game over is visible in the listing too.
    let body = http_get(addr, "/api/rooms").await;
    let rooms: serde_json::Value = serde_json::from_str(&body).unwrap();
    let ours = rooms
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == room)
        .unwrap();
    assert_eq!(ours["status"], "finished");
}

#[tokio::test]
async fn http_endpoints_answer() {
    let addr = start(config()).await;
    // `ok` first (health checks look for it), then which release answers.
    assert_eq!(
        http_get(addr, "/healthz").await,
        format!("ok dominion-server {}\n", env!("CARGO_PKG_VERSION"))
    );
    let cards: serde_json::Value =
        serde_json::from_str(&http_get(addr, "/api/cards").await).unwrap();
    assert!(
        cards
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["id"] == "throne_room" && c["cost"] == 4)
    );
    let kingdoms: serde_json::Value =
        serde_json::from_str(&http_get(addr, "/api/kingdoms").await).unwrap();
    assert!(
        kingdoms
            .as_array()
            .unwrap()
            .iter()
            .any(|k| k["id"] == "base_2e/first_game")
    );
    let bots: serde_json::Value = serde_json::from_str(&http_get(addr, "/api/bots").await).unwrap();
    assert!(bots.as_array().unwrap().iter().any(|b| b == "big_money"));
    assert!(!http_get(addr, "/").await.is_empty(), "/ serves a page");
}

/// A minimal HTTP/1.1 GET (no client library needed for four endpoints).
pub async fn http_get(addr: std::net::SocketAddr, path: &str) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    let req = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    s.write_all(req.as_bytes()).await.unwrap();
    let mut buf = Vec::new();
    s.read_to_end(&mut buf).await.unwrap();
    let text = String::from_utf8(buf).unwrap();
    let (head, body) = text.split_once("\r\n\r\n").unwrap();
    assert!(head.starts_with("HTTP/1.1 200"), "{path}: {head}");
    if head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        dechunk(body)
    } else {
        body.to_string()
    }
}

fn dechunk(mut body: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = body.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 {
            break;
        }
        out.push_str(&rest[..n]);
        body = &rest[n + 2..];
    }
    out
}
