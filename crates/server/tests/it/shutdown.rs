//! SIGTERM: the server closes every socket with 1012 ("service restart"), exits with
//! success within 10 seconds, and on the next start every game resumes where it was.

use crate::common::{Client, Closed, simple_reply};
use crate::process::{ServerProcess, record_from_history, score_fields, wire_scores};
use dominion_engine::Game;
use serde_json::{Value, json};
use std::time::{Duration, Instant};

fn settings(seats: Value) -> Value {
    json!({
        "kingdom": {"type": "recommended", "id": "base_2e/first_game"},
        "seats": seats,
        "abandoned": {"type": "wait"},
    })
}

/// Plays both seats of one room with [`simple_reply`] until they answered `n` decisions
/// between them. The last reply may still be in flight.
async fn play_pair(a: &mut Client, b: &mut Client, n: usize) {
    let mut answered = 0;
    while answered < n {
        let (v, first) = tokio::select! {
            v = a.recv() => (v, true),
            v = b.recv() => (v, false),
        };
        let c = if first { &mut *a } else { &mut *b };
        match v["type"].as_str() {
            Some("decision") => {
                c.reply(v["decision"].as_u64().unwrap(), simple_reply(&v))
                    .await;
                answered += 1;
            }
            Some("error") => panic!("{}: {v}", c.name),
            Some("game_over") => panic!("the game ended already"),
            _ => {}
        }
    }
}

/// A fresh connection back into a seat, numbering commands above the seat's last.
async fn resume(addr: std::net::SocketAddr, old: &Client) -> Client {
    let mut c = Client::connect(addr, &old.name).await;
    let seated = c
        .ask(json!({
            "type": "resume",
            "room": old.room.clone().unwrap(),
            "token": old.token.clone().unwrap(),
            "last_event": old.last_event,
        }))
        .await;
    assert_eq!(seated["type"], "seated", "{}: {seated}", old.name);
    assert_eq!(seated["seat"].as_u64(), old.seat, "{}", old.name);
    c.number_from(seated["last_command"].as_u64().unwrap());
    c
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_exits_within_10s_and_every_game_resumes() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut server = ServerProcess::start(dir.path()).await;
    let addr = server.addr;

    // Two games under way: Ann against a bot (watched), Bob against Cat.
    let mut ann = Client::connect(addr, "Ann").await;
    let room1 = ann
        .create_room_with(settings(
            json!([{"type": "open"}, {"type": "bot", "bot": "big_money"}]),
        ))
        .await;
    ann.take_seat(&room1).await;
    let mut watcher = Client::connect(addr, "Watcher").await;
    let s = watcher
        .ask(json!({"type": "spectate", "room": room1}))
        .await;
    assert_eq!(s["type"], "spectating", "{s}");
    ann.start().await;
    ann.play_decisions(5).await;

    let mut bob = Client::connect(addr, "Bob").await;
    let room2 = bob
        .create_room_with(settings(json!([{"type": "open"}, {"type": "open"}])))
        .await;
    bob.take_seat(&room2).await;
    let mut cat = Client::connect(addr, "Cat").await;
    cat.take_seat(&room2).await;
    bob.start().await;
    play_pair(&mut bob, &mut cat, 6).await;

    // SIGTERM: every socket gets 1012, the process exits 0 within 10 s.
    let asked = Instant::now();
    server.terminate();
    let limit = Duration::from_secs(10);
    let closes = async {
        tokio::time::timeout(limit, async {
            tokio::join!(ann.closed(), bob.closed(), cat.closed(), watcher.closed())
        })
        .await
    };
    let (closes, status) = tokio::join!(closes, server.wait_exit(limit));
    let elapsed = asked.elapsed();
    let status = status.unwrap_or_else(|| {
        panic!(
            "still running {limit:?} after SIGTERM; output:\n{}",
            server.output_tail(40)
        )
    });
    assert!(
        status.success(),
        "exit status {status} after SIGTERM; output:\n{}",
        server.output_tail(40)
    );
    let closes = closes.unwrap_or_else(|_| panic!("a socket was not closed within {limit:?}"));
    eprintln!("SIGTERM to exit: {elapsed:?}");
    let want = Closed::Code(1012);
    let got = [
        ("Ann", closes.0),
        ("Bob", closes.1),
        ("Cat", closes.2),
        ("the spectator", closes.3),
    ];
    for (who, closed) in &got {
        assert_eq!(
            *closed,
            want,
            "{who}'s socket (all: {got:?}; the process exited {elapsed:?} after SIGTERM); \
             output:\n{}",
            server.output_tail(30)
        );
    }

    // Same data directory, a new process: both games resume and end.
    let server = ServerProcess::start(dir.path()).await;
    let addr = server.addr;
    for room in [&room1, &room2] {
        let (status, body) = server.get(&format!("/api/games/{room}")).await;
        assert_eq!(status, 409, "{room} is not finished: {body}");
    }
    let mut ann = resume(addr, &ann).await;
    let mut bob = resume(addr, &bob).await;
    let mut cat = resume(addr, &cat).await;
    let play = Duration::ZERO;
    let finish = tokio::time::timeout(Duration::from_secs(60), async {
        tokio::join!(
            ann.play_to_end(play),
            bob.play_to_end(play),
            cat.play_to_end(play)
        )
    })
    .await;
    let (over1, over2, over2b) = finish.unwrap_or_else(|_| {
        panic!(
            "the resumed games did not end within 60 s; output:\n{}",
            server.output_tail(40)
        )
    });
    assert_eq!(over2, over2b, "Bob and Cat see the same result");

    // And each record replays to the scores announced.
    for (room, over) in [(&room1, &over1), (&room2, &over2)] {
        let history = server.get_json(&format!("/api/games/{room}")).await;
        let game = Game::replay(&record_from_history(&history))
            .unwrap_or_else(|e| panic!("room {room}: {e}"));
        assert!(game.is_over(), "room {room}");
        assert_eq!(score_fields(&over["scores"]), wire_scores(&game.scores()));
        assert_eq!(
            score_fields(&history["scores"]),
            wire_scores(&game.scores())
        );
    }
}
