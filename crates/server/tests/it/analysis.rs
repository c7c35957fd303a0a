//! Game review and hints (issue 27) on real servers.
//!
//! - `GET /api/games/{id}/analysis`: 404 for an unknown game, 409 while it is played,
//!   202 with progress, then the review; 503 when reviews are off or the queue is full
//!   (with `Retry-After`).
//! - A review interrupted by `kill -9` half way resumes at the next start from the
//!   decisions stored (they are kept, not made again) and ends exactly as a straight
//!   run of the engine's review (a playout cap and no binding clock: deterministic).
//! - `hint`: in a game against a bot, the Hard bot's answer to the player's pending
//!   decision, which the server accepts as a reply; refused in a rated room and in a
//!   room with another person.

use crate::common::{self, Client};
use crate::process::{Backend, TestStore, on_both_backends, record_from_history};
use dominion_engine::PlayerId;
use dominion_engine::bots::Thinking;
use dominion_engine::review;
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// A whole raw HTTP answer (status line, headers and body), for headers the shared
/// helpers drop.
async fn raw_get(addr: SocketAddr, path: &str) -> String {
    let mut s = tokio::net::TcpStream::connect(addr).await.expect("connect");
    let req = format!("GET {path} HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n");
    s.write_all(req.as_bytes()).await.expect("write");
    let mut out = Vec::new();
    tokio::time::timeout(Duration::from_secs(30), s.read_to_end(&mut out))
        .await
        .expect("an answer within 30 s")
        .expect("read");
    String::from_utf8_lossy(&out).to_lowercase()
}

/// Ann plays a whole game against `big_money` with the simple replies; the room id.
async fn finished_game(addr: SocketAddr) -> String {
    let (mut ann, room) = Client::against_big_money(addr, "Ann").await;
    tokio::time::timeout(Duration::from_secs(120), ann.play_to_end(Duration::ZERO))
        .await
        .expect("the game ends within 120 s");
    room
}

/// Polls the analysis until `done(status, body)`; gives the last answer.
async fn poll(addr: SocketAddr, room: &str, done: impl Fn(u16, &Value) -> bool) -> (u16, Value) {
    let path = format!("/api/games/{room}/analysis");
    for _ in 0..6000 {
        let (status, body) = crate::process::http_get(addr, &path).await;
        let v: Value = serde_json::from_str(&body)
            .unwrap_or_else(|e| panic!("GET {path}: not JSON ({e}): {status} {body}"));
        if done(status, &v) {
            return (status, v);
        }
        assert!(
            status == 202 || status == 200,
            "GET {path}: unexpected {status} {body}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("GET {path} never reached the awaited state (5 minutes)");
}

on_both_backends!(a_review_interrupted_by_kill_9_resumes_and_ends_as_a_straight_run,);

/// Playouts per decision: few, so that the whole review takes seconds, yet each
/// decision long enough to kill the server between two of them.
const PLAYOUTS: u32 = 40;

async fn a_review_interrupted_by_kill_9_resumes_and_ends_as_a_straight_run(backend: Backend) {
    let store = TestStore::new(backend);
    let cap = PLAYOUTS.to_string();
    // No clock that could bind: only the playout cap ends a decision's evaluation.
    let flags = [
        "--analysis-playouts",
        cap.as_str(),
        "--analysis-budget-ms",
        "600000",
    ];
    let mut server = store.start(&flags).await;
    let (status, _) = server.get("/api/games/nosuchgame/analysis").await;
    assert_eq!(status, 404);
    let room = finished_game(server.addr).await;
    let path = format!("/api/games/{room}/analysis");

    // The first request queues it; then it runs. Killed once some but not all of its
    // decisions are stored.
    let (status, first) = server.get(&path).await;
    assert_eq!(status, 202, "{first}");
    let (_, running) = poll(server.addr, &room, |s, v| {
        s == 202 && v["status"] == "running" && v["done"].as_u64() >= Some(2)
    })
    .await;
    let total = running["total"].as_u64().unwrap();
    assert!(
        running["done"].as_u64().unwrap() < total,
        "the review must still be running when killed: {running}"
    );
    server.kill();
    let _ = server.wait_exit(Duration::from_secs(10)).await;

    let version = review::REVIEW_VERSION;
    let kept = {
        let (database, room) = (store.database(), room.clone());
        tokio::task::spawn_blocking(move || {
            let mut a = dominion_store::Analyses::open(&database).expect("analyses");
            let row = a.analysis(&room).unwrap().expect("a stored analysis");
            assert_eq!(row.status, dominion_store::AnalysisStatus::Running);
            assert_eq!(row.total, Some(total as u32));
            a.decisions(&room, version).unwrap()
        })
        .await
        .unwrap()
    };
    assert!(
        kept.len() >= 2 && (kept.len() as u64) < total,
        "{} of {total} decisions stored at the kill",
        kept.len()
    );

    // Marks one stored decision (a sample count no run of this cap could give), to see
    // that the restarted server uses what is stored instead of making it again.
    let (marked, _) = &kept[0];
    let mut changed: Value = serde_json::from_str(&kept[0].1).unwrap();
    changed["samples"] = json!(12_345);
    overwrite_decision(&store, &room, *marked, &changed.to_string());

    // Restarted, the server resumes it by itself (no request needed) from what it kept.
    let server = store.start(&flags).await;
    let resumed = {
        let (database, room) = (store.database(), room.clone());
        tokio::task::spawn_blocking(move || {
            let mut a = dominion_store::Analyses::open(&database).expect("analyses");
            a.analysis(&room).unwrap().expect("a stored analysis")
        })
        .await
        .unwrap()
    };
    assert!(
        resumed.done >= kept.len() as u32,
        "nothing stored was lost: {} < {}",
        resumed.done,
        kept.len()
    );
    let (_, done) = poll(server.addr, &room, |s, _| s == 200).await;

    // The decisions stored before the kill are in the result as they were stored: not
    // made again (each would be the same, but the store keeps the first anyway: this
    // checks that the server did not discard them).
    let after = {
        let (database, room) = (store.database(), room.clone());
        tokio::task::spawn_blocking(move || {
            dominion_store::Analyses::open(&database)
                .expect("analyses")
                .decisions(&room, version)
                .unwrap()
        })
        .await
        .unwrap()
    };
    for (idx, text) in kept.iter().skip(1) {
        let again = after.iter().find(|(i, _)| i == idx).map(|(_, t)| t);
        assert_eq!(again, Some(text), "decision {idx} kept as stored");
    }
    let served = done["decisions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["step"] == *marked)
        .expect("the marked decision is in the review");
    assert_eq!(
        served["samples"], 12_345,
        "the stored decision was used, not made again: {served}"
    );
    assert_eq!(after.len() as u64, total);

    // The result is a straight run's: the engine's review of the published record, of
    // the human seat, seeded with the game's seed, converted as the server does.
    let history = server.get_json(&format!("/api/games/{room}")).await;
    let record = record_from_history(&history);
    let straight = review::review(
        &record,
        &[PlayerId(0)],
        record.seed,
        &Thinking::playouts(PLAYOUTS),
        |_, _| {},
    )
    .expect("the record replays");
    let expected = dominion_server::convert::analysis::analysis(
        &room,
        &straight,
        &[(0, "Ann".to_string()), (1, String::new())],
        PLAYOUTS,
        600_000,
    );
    let mut expected = serde_json::to_value(&expected).unwrap();
    for d in expected["decisions"].as_array_mut().unwrap() {
        if d["step"] == *marked {
            d["samples"] = json!(12_345);
        }
    }
    if let Some(at) = first_difference(&done, &expected, "") {
        panic!("the resumed review is not the straight run's: {at}");
    }
    assert_eq!(
        done["players"].as_array().unwrap().len(),
        1,
        "the bot is not reviewed"
    );
    assert_eq!(done["decisions"].as_array().unwrap().len() as u64, total);
    for d in done["decisions"].as_array().unwrap() {
        assert_eq!(d["seat"], 0);
        // `step` is the reply's index: the record's reply there is the answer given.
        let step = d["step"].as_u64().unwrap() as usize;
        assert_eq!(history["replies"][step]["reply"], d["given"], "{d}");
        assert_eq!(history["replies"][step]["seat"], 0);
    }
    // Served again, it is the same stored result.
    let (status, again) = server.get(&format!("/api/games/{room}/analysis")).await;
    assert_eq!(status, 200);
    assert_eq!(serde_json::from_str::<Value>(&again).unwrap(), done);

    // `/metrics` counts the review ended here and only the decisions made here.
    let (_, metrics) = server.get("/metrics").await;
    assert!(
        metrics.contains("dominion_analysis_games_total{result=\"done\"} 1\n"),
        "{metrics}"
    );
    let made: u64 = metrics
        .lines()
        .find_map(|l| l.strip_prefix("dominion_analysis_decision_seconds_count "))
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or_else(|| panic!("no decision count in {metrics}"));
    assert!(
        made >= 1 && made <= total - kept.len() as u64,
        "{made} decisions made after the restart ({} of {total} were kept)",
        kept.len()
    );
    assert!(
        metrics.contains("dominion_analysis_running 0\n"),
        "{metrics}"
    );
    assert!(
        metrics.contains("dominion_analysis_queued 0\n"),
        "{metrics}"
    );
}

/// Replaces the stored review of decision `idx` of `room` (the server is not running).
fn overwrite_decision(store: &TestStore, room: &str, idx: u32, review: &str) {
    const SQL: &str = "UPDATE analysis_decisions SET review = {review} \
                       WHERE room_id = {room} AND idx = {idx}";
    let n = match store.url() {
        None => rusqlite::Connection::open(crate::process::db_path(store.dir()))
            .unwrap()
            .execute(
                &SQL.replace("{review}", "?2")
                    .replace("{room}", "?1")
                    .replace("{idx}", "?3"),
                rusqlite::params![room, review, i64::from(idx)],
            )
            .unwrap() as u64,
        Some(url) => {
            let (room, review) = (room.to_string(), review.to_string());
            crate::process::on_pg(url, move |c| {
                c.execute(
                    &SQL.replace("{review}", "$2")
                        .replace("{room}", "$1")
                        .replace("{idx}", "$3"),
                    &[&room, &review, &i64::from(idx)],
                )
            })
        }
    };
    assert_eq!(n, 1, "one stored decision overwritten");
}

/// Where two JSON values differ, numbers compared to 1e-9 (a number read back from
/// JSON text may differ from the one written in its last bit).
fn first_difference(a: &Value, b: &Value, at: &str) -> Option<String> {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            if x.len() != y.len() {
                return Some(format!("{at}: keys {:?} vs {:?}", x.keys(), y.keys()));
            }
            x.iter().find_map(|(k, v)| match y.get(k) {
                Some(w) => first_difference(v, w, &format!("{at}.{k}")),
                None => Some(format!("{at}.{k}: missing")),
            })
        }
        (Value::Array(x), Value::Array(y)) => {
            if x.len() != y.len() {
                return Some(format!("{at}: {} vs {} items", x.len(), y.len()));
            }
            x.iter()
                .zip(y)
                .enumerate()
                .find_map(|(i, (v, w))| first_difference(v, w, &format!("{at}[{i}]")))
        }
        (Value::Number(x), Value::Number(y)) => {
            let (x, y) = (x.as_f64().unwrap(), y.as_f64().unwrap());
            ((x - y).abs() > 1e-9).then(|| format!("{at}: {x} vs {y}"))
        }
        _ => (a != b).then(|| format!("{at}: {a} vs {b}")),
    }
}

/// 409 while played, 503 with `--analysis-workers 0`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_review_waits_for_the_end_and_is_refused_when_reviews_are_off() {
    let config = dominion_server::Config {
        analysis_workers: 0,
        ..common::config()
    };
    let addr = common::start(config).await;
    let (mut ann, room) = Client::against_big_money(addr, "Ann").await;
    ann.play_decisions(3).await;
    let path = format!("/api/games/{room}/analysis");
    let (status, body) = crate::process::http_get(addr, &path).await;
    assert_eq!(status, 409, "{body}");
    assert!(body.contains("not over"), "{body}");
    ann.play_to_end(Duration::ZERO).await;
    let (status, body) = crate::process::http_get(addr, &path).await;
    assert_eq!(status, 503, "{body}");
    assert!(body.contains("--analysis-workers 0"), "{body}");
}

/// With one worker busy and a queue of one, a third game is refused with 503 and
/// `Retry-After`; the queued one says its position.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_queue_says_when_to_ask_again() {
    let config = dominion_server::Config {
        analysis_workers: 1,
        analysis_queue: 1,
        // Slow enough that the first review is still running at the third request.
        analysis_playouts: 1_000_000,
        analysis_budget_ms: 2_000,
        ..common::config()
    };
    let addr = common::start(config).await;
    let games = [
        finished_game(addr).await,
        finished_game(addr).await,
        finished_game(addr).await,
    ];
    let path = |g: &str| format!("/api/games/{g}/analysis");
    let (status, _) = crate::process::http_get(addr, &path(&games[0])).await;
    assert_eq!(status, 202);
    // The worker takes the first: it runs, and the queue is empty again.
    poll(addr, &games[0], |s, v| s == 202 && v["status"] == "running").await;
    let (status, body) = crate::process::http_get(addr, &path(&games[1])).await;
    assert_eq!(status, 202, "{body}");
    assert_eq!(
        serde_json::from_str::<Value>(&body).unwrap(),
        json!({"status": "queued", "position": 0})
    );
    let (_, metrics) = crate::process::http_get(addr, "/metrics").await;
    assert!(
        metrics.contains("dominion_analysis_running 1\n"),
        "{metrics}"
    );
    assert!(
        metrics.contains("dominion_analysis_queued 1\n"),
        "{metrics}"
    );
    let full = raw_get(addr, &path(&games[2])).await;
    assert!(full.starts_with("http/1.1 503"), "{full}");
    assert!(full.contains("retry-after: 30"), "{full}");
    assert!(full.contains("ask again later"), "{full}");
}

/// Waits for the client's next decision frame.
async fn next_decision(c: &mut Client) -> Value {
    c.until(|v| v["type"] == "decision").await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hint_against_a_bot_is_a_legal_answer_to_the_pending_decision() {
    let config = dominion_server::Config {
        bot_think_ms: 50,
        bot_threads: Some(1),
        ..common::config()
    };
    let addr = common::start(config).await;
    let (mut ann, _room) = Client::against_big_money(addr, "Ann").await;
    for _ in 0..4 {
        let d = next_decision(&mut ann).await;
        let decision = d["decision"].as_u64().unwrap();
        let id = ann.command(json!({"type": "hint"})).await;
        let ack = ann.answer(id).await;
        assert_eq!(ack["type"], "ack", "{ack}");
        let hint = ann.until(|v| v["type"] == "hint").await;
        assert_eq!(hint["decision"], decision, "{hint}");
        // The server takes the hint as the answer.
        let reply = hint["reply"].clone();
        let id = ann.reply(decision, reply).await;
        let answer = ann.answer(id).await;
        assert_eq!(
            answer["type"], "ack",
            "the hint {hint} is a legal reply: {answer}"
        );
    }
}

/// Asked at once after the start, not at the asker's decision: the refusals come before
/// any question of whose turn it is, and the first turn may be a seat that never answers
/// here (Dan, below), so waiting for a decision of the asker's could wait forever.
async fn refused_hint(c: &mut Client) -> Value {
    let answer = c.ask(json!({"type": "hint"})).await;
    assert_eq!(answer["type"], "error", "{answer}");
    assert_eq!(answer["code"], "hint_unavailable", "{answer}");
    answer
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hint_is_refused_in_a_rated_room_and_beside_another_person() {
    let addr = common::start(common::config()).await;
    // Rated, against a bot.
    let mut ann = Client::connect(addr, "Ann").await;
    let room = ann
        .create_room_with(json!({
            "kingdom": {"type": "recommended", "id": "base_2e/first_game"},
            "seats": [{"type": "open"}, {"type": "bot", "bot": "big_money"}],
            "rated": true,
        }))
        .await;
    ann.take_seat(&room).await;
    ann.start().await;
    let refused = refused_hint(&mut ann).await;
    assert!(
        refused["message"].as_str().unwrap().contains("rated"),
        "{refused}"
    );

    // Unrated, with another person (and a bot).
    let mut cleo = Client::connect(addr, "Cleo").await;
    let mut dan = Client::connect(addr, "Dan").await;
    let room = cleo
        .create_room(
            json!([{"type": "open"}, {"type": "open"}, {"type": "bot", "bot": "big_money"}]),
        )
        .await;
    cleo.take_seat(&room).await;
    dan.take_seat(&room).await;
    cleo.start().await;
    let refused = refused_hint(&mut cleo).await;
    assert!(
        refused["message"]
            .as_str()
            .unwrap()
            .contains("against bots"),
        "{refused}"
    );
}
