//! `dominion-server backup FILE` against a real server process in the middle of a game:
//! the copy is made while the game goes on, passes SQLite's integrity check, holds every
//! reply acknowledged before it began, is never written over without `--force`, and,
//! restored into a fresh data directory, reopens the game for its player to finish.

use crate::common::{Client, simple_reply};
use crate::process::{BIN, ServerProcess, db_path, integrity_check, stored_game};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Output};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Plays `c`'s seat (answering every decision at once) until `cap` of its replies were
/// acknowledged, recording each acknowledged reply (wire JSON) in order.
async fn play_until(mut c: Client, cap: usize, acked: Arc<Mutex<Vec<Value>>>) -> Client {
    let mut sent: BTreeMap<u64, Value> = BTreeMap::new();
    while acked.lock().unwrap().len() < cap {
        let v = c.recv().await;
        match v["type"].as_str().unwrap_or_default() {
            "decision" => {
                let reply = simple_reply(&v);
                let id = c
                    .reply(v["decision"].as_u64().unwrap(), reply.clone())
                    .await;
                sent.insert(id, reply);
            }
            "ack" => {
                if let Some(r) = v["re"].as_u64().and_then(|id| sent.remove(&id)) {
                    acked.lock().unwrap().push(r);
                }
            }
            "error" => panic!("{}: {v}", c.name),
            "game_over" => panic!("the game ended before {cap} replies: {v}"),
            _ => {}
        }
    }
    c
}

/// `dominion-server --data-dir DIR backup FILE [more]`, run as a separate process.
async fn run_backup(data_dir: &Path, file: &Path, more: &[&str]) -> Output {
    let mut cmd = Command::new(BIN);
    cmd.arg("--data-dir")
        .arg(data_dir)
        .arg("backup")
        .arg(file)
        .args(more);
    for (key, _) in std::env::vars_os() {
        if key.to_string_lossy().starts_with("DOMINION_") {
            cmd.env_remove(key);
        }
    }
    tokio::task::spawn_blocking(move || cmd.output().expect("run backup"))
        .await
        .unwrap()
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// A stored game's replies by one seat, as engine-reply JSON values.
fn replies_of(db: &Path, room: &str, seat: u8) -> Vec<Value> {
    stored_game(db, room)
        .unwrap_or_else(|| panic!("no game {room} in {}", db.display()))
        .replies
        .iter()
        .filter(|(p, _, _)| *p == seat)
        .map(|(_, r, _)| serde_json::from_str(r).unwrap())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_backup_taken_mid_game_is_whole_and_restores_into_a_server_that_reopens_it() {
    const BEFORE_BACKUP: usize = 6;
    // At most six turns, then two more replies after the backup: short of a game's end
    // (these two Big Money players take some 15 turns of two replies each), so the game
    // is in progress in every copy.
    const CAP: usize = 12;
    let dir = tempfile::tempdir().expect("tempdir");
    let out = tempfile::tempdir().expect("tempdir");
    let server = ServerProcess::start(dir.path()).await;
    let mut ann = Client::connect(server.addr, "Ann").await;
    let room = ann
        .create_room_with(json!({
            "kingdom": {"type": "recommended", "id": "base_2e/first_game"},
            "seats": [{"type": "open"}, {"type": "bot", "bot": "big_money"}],
            "abandoned": {"type": "wait"},
        }))
        .await;
    let seat = ann.take_seat(&room).await as u8;
    let token = ann.token.clone().expect("a seat token");
    ann.start().await;
    let acked = Arc::new(Mutex::new(Vec::new()));
    let player = tokio::spawn(play_until(ann, CAP, acked.clone()));
    let started = Instant::now();
    while acked.lock().unwrap().len() < BEFORE_BACKUP {
        assert!(started.elapsed() < Duration::from_secs(60), "too slow");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }

    // The backup runs while Ann goes on playing (the server keeps committing).
    let before: Vec<Value> = acked.lock().unwrap().clone();
    let file = out.path().join("backup.sqlite3");
    let backed = run_backup(dir.path(), &file, &[]).await;
    let said = text(&backed);
    assert!(backed.status.success(), "{said}");
    assert!(
        said.contains("integrity_check ok") && said.contains("1 games (1 in progress"),
        "it says what it copied: {said}"
    );
    eprintln!("{}", said.trim());
    // Two more of Ann's replies are committed after the backup, however fast it was;
    // then she has a decision to answer and nobody else can move.
    let mut ann = player.await.unwrap();
    for _ in 0..2 {
        let d = ann.until(|v| v["type"] == "decision").await;
        let id = ann
            .reply(d["decision"].as_u64().unwrap(), simple_reply(&d))
            .await;
        assert_eq!(ann.answer(id).await["type"], "ack");
    }
    ann.until(|v| v["type"] == "decision").await;
    assert_eq!(integrity_check(&file), "ok");
    let copied = replies_of(&file, &room, seat);
    // The store keeps replies in the wire format, exactly as the client sent them.
    let expected: Vec<Value> = before.clone();
    assert!(
        copied.len() >= before.len() && copied[..before.len()] == expected[..],
        "every reply acknowledged before the backup is in it, in order:\nacked {expected:?}\n\
         copied {copied:?}"
    );
    // The copy is the server's log up to some point: a prefix of what it holds now.
    let live = stored_game(&db_path(dir.path()), &room).unwrap().replies;
    let copy = stored_game(&file, &room).unwrap();
    assert!(!copy.finished);
    assert!(
        live.len() >= copy.replies.len() && live[..copy.replies.len()] == copy.replies[..],
        "the copy is a prefix of the live log ({} of {} replies)",
        copy.replies.len(),
        live.len()
    );
    assert!(
        live.len() > copy.replies.len(),
        "the game went on after the backup"
    );

    // An existing file is not replaced without --force (and is left as it was).
    let first = std::fs::read(&file).unwrap();
    let refused = run_backup(dir.path(), &file, &[]).await;
    assert!(!refused.status.success());
    assert!(text(&refused).contains("--force"), "{}", text(&refused));
    assert_eq!(std::fs::read(&file).unwrap(), first);
    let forced = run_backup(dir.path(), &file, &["--force"]).await;
    assert!(forced.status.success(), "{}", text(&forced));
    let copy = stored_game(&file, &room).unwrap();
    assert_eq!(
        copy.replies.len(),
        stored_game(&db_path(dir.path()), &room)
            .unwrap()
            .replies
            .len(),
        "Ann has a decision to answer, nobody else moves: the new copy holds everything"
    );
    drop(ann);
    // Only the copy in the output directory: no partial file left behind.
    assert_eq!(std::fs::read_dir(out.path()).unwrap().count(), 1);
    drop(server);

    // Restore: the copy as the database of a fresh data directory, a server on it.
    let restored = tempfile::tempdir().expect("tempdir");
    std::fs::copy(&file, db_path(restored.path())).unwrap();
    let server = ServerProcess::start(restored.path()).await;
    let rooms = server.get_json("/api/rooms").await;
    let listed = rooms
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == room.as_str())
        .unwrap_or_else(|| panic!("{room} is not reopened: {rooms}"));
    assert_eq!(listed["status"], "playing", "{listed}");
    let mut ann = Client::connect(server.addr, "Ann again").await;
    let seated = ann
        .ask(json!({"type": "resume", "room": room, "token": token}))
        .await;
    assert_eq!(seated["type"], "seated", "{seated}");
    ann.number_from(seated["last_command"].as_u64().unwrap());
    let over = ann.play_to_end(Duration::ZERO).await;
    assert_eq!(over["type"], "game_over");
    let end = stored_game(&db_path(restored.path()), &room).unwrap();
    assert!(end.finished);
    assert_eq!(
        end.replies[..copy.replies.len()],
        copy.replies[..],
        "the restored game went on from the copy"
    );
}
