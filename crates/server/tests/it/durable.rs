//! Durability and room lifetime against the real server binary and its SQLite file:
//! group commit under many rooms and `kill -9`, the start-up check of a data directory
//! the server cannot write, `create_room` when the room cannot be stored, abandoned
//! games, a seat's command numbers across a restart, and a database written by the
//! first release (schema 1, JSON state hashes) reopened by this one.

use crate::common::{Client, simple_reply};
use crate::process::{
    BIN, Backend, ServerProcess, TestStore, db_path, engine_reply, listening_addr,
    on_both_backends, parse_digest, record_from_history, server_command, stored_game, stored_reply,
    stored_setup, try_send,
};
use dominion_engine::view::Observation;
use dominion_engine::{Edition, Game, GameRecord, Kingdom, PlayerId, Setup, bots};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::io::Read;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};
use tokio::sync::{Notify, mpsc};

fn waiting_room(bot: Option<&str>) -> Value {
    let seats = match bot {
        Some(bot) => json!([{"type": "open"}, {"type": "bot", "bot": bot}]),
        None => json!([{"type": "open"}, {"type": "open"}]),
    };
    json!({
        "kingdom": {"type": "recommended", "id": "base_2e/first_game"},
        "seats": seats,
        // Nobody plays an absent player's seat: the game waits for them.
        "abandoned": {"type": "wait"},
    })
}

/// A number in the server's `/metrics` text (a line `name value`).
fn metric(text: &str, name: &str) -> f64 {
    text.lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.trim().parse().ok())
        .unwrap_or_else(|| panic!("no {name} in /metrics:\n{text}"))
}

/// One room's socket player: answers every decision at once and remembers each reply
/// it saw acknowledged, until the server dies or the game ends.
async fn play_until_killed(
    mut c: Client,
    acks: Arc<AtomicU64>,
    notify: Arc<Notify>,
) -> Result<(Client, Vec<(u64, Value)>), String> {
    let mut sent: BTreeMap<u64, (u64, Value)> = BTreeMap::new();
    let mut acked = Vec::new();
    while let Ok(v) = c.recv_or_closed().await {
        match v["type"].as_str().unwrap_or_default() {
            "decision" => {
                let d = v["decision"].as_u64().unwrap();
                let reply = simple_reply(&v);
                let id = c.last_id() + 1;
                let msg = json!({"type": "reply", "id": id, "decision": d, "reply": reply});
                c.number_from(id);
                sent.insert(id, (d, reply));
                if try_send(&mut c, &msg).await.is_err() {
                    break;
                }
            }
            "ack" => {
                if let Some(r) = v["re"].as_u64().and_then(|id| sent.remove(&id)) {
                    acked.push(r);
                    acks.fetch_add(1, Ordering::SeqCst);
                    notify.notify_one();
                }
            }
            "error" => return Err(format!("{}: {v}", c.name)),
            "game_over" => break,
            _ => {}
        }
    }
    Ok((c, acked))
}

on_both_backends!(
    replies_of_many_rooms_are_committed_together_and_survive_kill_9,
    a_seats_last_command_survives_a_restart,
);

/// Many rooms reply at once, so the writer commits the replies of several rooms in each
/// transaction; `kill -9` then lands amid the batches. Every reply a client saw
/// acknowledged is in the file, at its place in its game's log.
async fn replies_of_many_rooms_are_committed_together_and_survive_kill_9(backend: Backend) {
    const ROOMS: usize = 24;
    // About a third of the way through the games (each has some 30 replies of its
    // player), so the kill lands while every room is replying.
    const ACKS_BEFORE_KILL: u64 = 240;
    let store = TestStore::new(backend);
    let mut server = store.start(&[]).await;
    let mut clients = Vec::new();
    for i in 0..ROOMS {
        let mut c = Client::connect(server.addr, &format!("P{i}")).await;
        let room = c.create_room_with(waiting_room(Some("big_money"))).await;
        c.take_seat(&room).await;
        c.start().await;
        clients.push(c);
    }
    let acks = Arc::new(AtomicU64::new(0));
    let notify = Arc::new(Notify::new());
    let (tx, mut rx) = mpsc::unbounded_channel();
    for c in clients {
        let (acks, notify, tx) = (acks.clone(), notify.clone(), tx.clone());
        tokio::spawn(async move {
            let _ = tx.send(play_until_killed(c, acks, notify).await);
        });
    }
    drop(tx);
    let deadline = Instant::now() + Duration::from_secs(120);
    while acks.load(Ordering::SeqCst) < ACKS_BEFORE_KILL {
        assert!(
            Instant::now() < deadline,
            "only {} replies acknowledged within 120 s:\n{}",
            acks.load(Ordering::SeqCst),
            server.output_tail(40)
        );
        let _ = tokio::time::timeout(Duration::from_millis(200), notify.notified()).await;
    }
    // Mid-play: how many transactions carried how many replies so far.
    let metrics = server.get("/metrics").await.1;
    server.kill();
    let batches = metric(&metrics, "dominion_sqlite_write_seconds_count");
    let replies = metric(&metrics, "dominion_replies_total");

    let mut players = Vec::new();
    while let Some(r) = rx.recv().await {
        players.push(r.unwrap_or_else(|e| panic!("{e}")));
    }
    assert_eq!(players.len(), ROOMS);
    assert_eq!(store.integrity_check(), "ok");
    let (mut acked_total, mut logged_total) = (0, 0);
    for (c, acked) in &players {
        let room = c.room.as_deref().unwrap();
        let stored = store
            .stored_game(room)
            .unwrap_or_else(|| panic!("no game for {room}"));
        let record = GameRecord {
            setup: stored_setup(&stored.setup),
            seed: stored.seed.parse().unwrap(),
            replies: stored
                .replies
                .iter()
                .map(|(p, r, _)| (PlayerId(*p), stored_reply(r)))
                .collect(),
            // Played just now, under this engine's rules.
            rules: dominion_engine::RULES_VERSION,
        };
        let game = Game::replay(&record).unwrap_or_else(|e| panic!("{room}: {e}"));
        assert_eq!(
            parse_digest(&stored.last_hash),
            game.digest(),
            "{room}: the stored digest is the replay's"
        );
        let position: BTreeMap<u64, usize> = game
            .reply_numbers()
            .iter()
            .enumerate()
            .map(|(i, n)| (*n, i))
            .collect();
        for (d, wire) in acked {
            let logged = position.get(d).and_then(|&i| record.replies.get(i));
            let expected = (PlayerId(c.seat.unwrap() as u8), engine_reply(wire));
            assert!(
                logged == Some(&expected),
                "{room}: acknowledged reply {wire} to decision {d} is not in the log \
                 (found {logged:?})"
            );
        }
        acked_total += acked.len();
        logged_total += record.replies.len();
    }
    eprintln!(
        "group commit: {replies} replies in {batches} transactions before the kill; \
         {acked_total} acknowledged replies of {ROOMS} rooms, all among the {logged_total} \
         in the file after kill -9"
    );
    assert!(acked_total as u64 >= ACKS_BEFORE_KILL);
    assert!(
        batches < replies,
        "every reply had a transaction of its own ({batches} transactions, {replies} replies): \
         nothing was committed together"
    );
}

/// Whether this process runs as root (which ignores file permissions): `/proc/self` is
/// owned by the process's effective user.
fn running_as_root() -> bool {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata("/proc/self").is_ok_and(|m| m.uid() == 0)
}

/// The user the server runs as in the permission tests. Root ignores permissions, so
/// when the tests run as root the server is started as `nobody` (65534) — what a real
/// deployment does too (the Docker image runs as an unprivileged user).
const NOBODY: u32 = 65534;

/// Starts the server on `data_dir` as an unprivileged user with `extra` flags; returns
/// the child and everything it prints, as it prints it.
fn spawn_unprivileged(
    data_dir: &Path,
    extra: &[&str],
) -> (std::process::Child, Arc<std::sync::Mutex<String>>) {
    spawn_unprivileged_env(data_dir, extra, &[])
}

/// As [`spawn_unprivileged`], with environment variables set for the server.
fn spawn_unprivileged_env(
    data_dir: &Path,
    extra: &[&str],
    env: &[(&str, &str)],
) -> (std::process::Child, Arc<std::sync::Mutex<String>>) {
    let mut cmd = server_command(env);
    cmd.args(["--log", "info", "--data-dir"])
        .arg(data_dir)
        .args(extra);
    if running_as_root() {
        use std::os::unix::process::CommandExt;
        cmd.uid(NOBODY).gid(NOBODY);
    }
    let mut child = cmd.spawn().expect("start the server");
    let out = Arc::new(std::sync::Mutex::new(String::new()));
    for mut pipe in [
        Box::new(child.stdout.take().unwrap()) as Box<dyn std::io::Read + Send>,
        Box::new(child.stderr.take().unwrap()),
    ] {
        let out = out.clone();
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = pipe.read(&mut buf) {
                if n == 0 {
                    break;
                }
                out.lock()
                    .unwrap()
                    .push_str(&String::from_utf8_lossy(&buf[..n]));
            }
        });
    }
    (child, out)
}

/// Runs the server on `data_dir` as an unprivileged user until it says it listens or
/// exits; returns (exit status if it exited, everything it printed).
async fn run_unprivileged(data_dir: &Path) -> (Option<std::process::ExitStatus>, String) {
    let (mut child, out) = spawn_unprivileged(data_dir, &[]);
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("try_wait") {
            break Some(status);
        }
        if out
            .lock()
            .unwrap()
            .lines()
            .any(|l| listening_addr(l).is_some())
        {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "the server neither listened nor exited within 30 s:\n{}",
            out.lock().unwrap()
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    };
    // The pipes close with the process; give the readers a moment for the last words.
    tokio::time::sleep(Duration::from_millis(100)).await;
    let text = out.lock().unwrap().clone();
    (status, text)
}

/// Waits (at most `limit`) until the output holds `needle`; returns the output.
async fn output_with(out: &std::sync::Mutex<String>, needle: &str, limit: Duration) -> String {
    let started = Instant::now();
    loop {
        let text = out.lock().unwrap().clone();
        if text.contains(needle) {
            return text;
        }
        assert!(
            started.elapsed() < limit,
            "no {needle:?} within {limit:?}:\n{text}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

fn chmod(path: &Path, mode: u32) {
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))
        .unwrap_or_else(|e| panic!("chmod {mode:o} {}: {e}", path.display()));
}

/// A data directory that already holds a database but cannot be written — the
/// directory, or the database file itself — is refused at start with a message saying
/// so, before the server listens. The same directory made writable starts normally, so
/// the refusal is the permissions' doing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_data_dir_or_database_the_server_cannot_write_is_refused_at_start() {
    let top = tempfile::tempdir().expect("tempdir");
    // The unprivileged server must be able to reach the directory.
    chmod(top.path(), 0o755);
    let data = top.path().join("data");
    std::fs::create_dir(&data).unwrap();
    drop(dominion_store::Store::open(&data, dominion_store::Durability::Full).unwrap());
    let db = db_path(&data);
    assert!(db.exists());
    let owner = if running_as_root() {
        Some(NOBODY)
    } else {
        None
    };
    let chown = |path: &Path| {
        if let Some(uid) = owner {
            std::os::unix::fs::chown(path, Some(uid), Some(uid))
                .unwrap_or_else(|e| panic!("chown {}: {e}", path.display()));
        }
    };
    chown(&data);
    chown(&db);

    // The directory is read-only (the database in it too).
    chmod(&db, 0o444);
    chmod(&data, 0o555);
    let (status, out) = run_unprivileged(&data).await;
    let status = status.unwrap_or_else(|| panic!("the server started on a read-only dir:\n{out}"));
    // 78 (EX_CONFIG), not 1: a supervisor can tell it from a crash.
    assert_eq!(status.code(), Some(78), "{out}");
    assert!(
        out.contains("the data directory") && out.contains("is not writable"),
        "the message says what is wrong:\n{out}"
    );
    // And why, and what fixes it: the owner and mode, the server's own uid, the command.
    let uid = owner.unwrap_or_else(|| {
        use std::os::unix::fs::MetadataExt;
        std::fs::metadata("/proc/self").unwrap().uid()
    });
    let mode = format!("owned by uid {uid}, gid {uid}, mode dr-xr-xr-x (0555)");
    assert!(out.contains(&mode), "the owner and mode ({mode}):\n{out}");
    assert!(
        out.contains(&format!("the server runs as uid {uid}")),
        "the server's uid:\n{out}"
    );
    assert!(
        out.contains(&format!("chmod -R u+rwX {}", data.display())),
        "the owner is the server's user but may not write: the fix is chmod:\n{out}"
    );

    // The directory is writable, the database file is not.
    chmod(&data, 0o755);
    let (status, out) = run_unprivileged(&data).await;
    let status = status.unwrap_or_else(|| panic!("the server started on a read-only db:\n{out}"));
    assert!(!status.success(), "{status}: {out}");
    assert!(
        out.contains("the database") && out.contains("is not writable"),
        "the message says what is wrong:\n{out}"
    );
    eprintln!("refused: {}", out.lines().last().unwrap_or_default());

    // Both writable: the same user starts the server on the same files.
    chmod(&db, 0o644);
    let (status, out) = run_unprivileged(&data).await;
    assert!(status.is_none(), "a writable store is accepted:\n{out}");

    // A directory that belongs to another user (a volume created by root, the usual
    // mistake): the message names both uids and gives the chown that fixes it.
    if running_as_root() {
        std::os::unix::fs::chown(&data, Some(0), Some(0)).unwrap();
        chmod(&data, 0o755);
        let (status, out) = run_unprivileged(&data).await;
        assert_eq!(status.and_then(|s| s.code()), Some(78), "{out}");
        assert!(
            out.contains("owned by uid 0, gid 0, mode drwxr-xr-x (0755)")
                && out.contains(&format!("the server runs as uid {NOBODY}, gid {NOBODY}"))
                && out.contains(&format!("chown -R {NOBODY}:{NOBODY} {}", data.display())),
            "owner, server uid and the chown:\n{out}"
        );
        eprintln!("refused, foreign owner:\n{out}");
    }
}

/// With `--wait-for-data-dir` (the Docker image sets it) a data directory the server
/// cannot write does not make it exit: it logs the explanation, answers 503 on every
/// request, so `healthcheck` fails, checks again, and starts by itself once the
/// directory is fixed. A SIGTERM while it waits stops it at once. The 503 tells a
/// visitor only that the server is starting: the paths, modes and the server's uid are
/// for the log (issue 23).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_waiting_for_its_data_dir_reports_unhealthy_and_starts_once_fixed() {
    let top = tempfile::tempdir().expect("tempdir");
    chmod(top.path(), 0o755);
    let data = top.path().join("data");
    std::fs::create_dir(&data).unwrap();
    // As root: a directory root owns, as a fresh volume is. Otherwise: one the server's
    // own user may not write.
    chmod(&data, if running_as_root() { 0o755 } else { 0o555 });
    // The environment variable, as the image sets it (the test's own DOMINION_* are
    // cleared first, then this is set).
    let (mut child, out) =
        spawn_unprivileged_env(&data, &[], &[("DOMINION_WAIT_FOR_DATA_DIR", "1")]);
    let text = output_with(&out, "get 503", Duration::from_secs(30)).await;
    let addr: std::net::SocketAddr = text
        .split("HTTP requests to ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|a| a.parse().ok())
        .unwrap_or_else(|| panic!("no address in the waiting message:\n{text}"));
    assert!(text.contains("is not writable"), "{text}");
    let (status, body) = crate::process::http_get(addr, "/healthz").await;
    assert_eq!(status, 503, "{body}");
    eprintln!("the 503 a visitor sees: {body}");
    assert_eq!(
        body, "starting: the server is not ready yet (the reason is in its log)\n",
        "the 503 says the server is starting and nothing more"
    );
    for detail in ["fix:", "uid", "mode", &data.display().to_string()] {
        assert!(
            !body.contains(detail),
            "{detail:?} shown to a visitor: {body}"
        );
    }
    assert!(text.contains("fix:"), "the log has the whole story: {text}");
    let health = tokio::task::spawn_blocking(move || {
        Command::new(BIN)
            .args(["--addr", &addr.to_string(), "healthcheck"])
            .output()
            .expect("run healthcheck")
    })
    .await
    .unwrap();
    let said = String::from_utf8_lossy(&health.stderr).to_string();
    assert!(!health.status.success(), "unhealthy while waiting: {said}");
    assert!(said.contains("503") && said.contains("starting"), "{said}");

    // The fix the message gave; the next check (at most RETRY_FIRST later) finds it.
    if running_as_root() {
        std::os::unix::fs::chown(&data, Some(NOBODY), Some(NOBODY)).unwrap();
    } else {
        chmod(&data, 0o755);
    }
    let fixed = Instant::now();
    output_with(&out, "listening on http://", Duration::from_secs(30)).await;
    eprintln!("started {:?} after the fix", fixed.elapsed());
    let (status, body) = crate::process::http_get(addr, "/healthz").await;
    assert_eq!(status, 200, "{body}");
    assert!(body.starts_with("ok dominion-server "), "{body}");
    assert!(db_path(&data).exists(), "the store was created");
    let _ = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status();
    let _ = child.wait();

    // Waiting again, then SIGTERM: it stops at once, as `docker stop` expects.
    if running_as_root() {
        std::os::unix::fs::chown(&data, Some(0), Some(0)).unwrap();
    } else {
        chmod(&data, 0o555);
    }
    let (mut child, out) = spawn_unprivileged_env(&data, &["--wait-for-data-dir"], &[]);
    output_with(&out, "get 503", Duration::from_secs(30)).await;
    let stopping = Instant::now();
    let _ = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status();
    let status = child.wait().unwrap();
    assert!(status.success(), "{status}");
    assert!(
        stopping.elapsed() < Duration::from_secs(3),
        "SIGTERM while waiting took {:?}",
        stopping.elapsed()
    );
}

/// While another process holds the database's write lock, a new room cannot be stored:
/// `create_room` is refused and the room is not listed. Once the lock is gone it works.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn create_room_is_refused_when_the_room_cannot_be_stored() {
    let dir = tempfile::tempdir().expect("tempdir");
    let server = ServerProcess::start(dir.path()).await;
    let mut ann = Client::connect(server.addr, "Ann").await;
    let lock = rusqlite::Connection::open(db_path(dir.path())).unwrap();
    lock.execute_batch("BEGIN IMMEDIATE").unwrap();
    let answer = ann
        .ask(json!({"type": "create_room", "settings": waiting_room(Some("big_money"))}))
        .await;
    assert_eq!(answer["type"], "error", "{answer}");
    assert_eq!(answer["code"], "internal", "{answer}");
    assert_eq!(
        server.get_json("/api/rooms").await,
        json!([]),
        "a room that could not be stored is not listed"
    );
    lock.execute_batch("ROLLBACK").unwrap();
    let room = ann.create_room_with(waiting_room(Some("big_money"))).await;
    let stored: Vec<String> = lock
        .prepare("SELECT id FROM rooms")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(stored, vec![room]);
}

/// A started game whose only player left, in a room that waits for absent players, ends
/// as abandoned once nobody has been connected for `--abandon-after`: a spectator is
/// told, the room closes and frees its place under `--max-rooms 1`, the history lists the
/// game as abandoned with its replay, and a restart does not reopen it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unattended_game_is_abandoned_frees_its_room_and_stays_in_history() {
    let dir = tempfile::tempdir().expect("tempdir");
    let flags = ["--abandon-after", "1s", "--max-rooms", "1"];
    let mut server = ServerProcess::start_with(dir.path(), &flags).await;
    let mut ann = Client::connect(server.addr, "Ann").await;
    let room = ann.create_room_with(waiting_room(Some("big_money"))).await;
    ann.take_seat(&room).await;
    ann.start().await;
    ann.play_decisions(3).await;
    let ann_token = ann.token.clone().unwrap();
    let mut bea = Client::connect(server.addr, "Bea").await;
    let watching = bea.ask(json!({"type": "spectate", "room": room})).await;
    assert_eq!(watching["type"], "spectating", "{watching}");
    let mut cid = Client::connect(server.addr, "Cid").await;
    let full = cid
        .ask(json!({"type": "create_room", "settings": waiting_room(None)}))
        .await;
    assert_eq!(full["code"], "too_many_rooms", "{full}");

    let left = ann.ask(json!({"type": "leave"})).await;
    assert_eq!(left["type"], "ack", "{left}");
    let told = bea.until(|v| v["type"] == "error").await;
    assert_eq!(told["code"], "unknown_room", "{told}");
    assert!(
        told["message"].as_str().unwrap().contains("abandoned"),
        "{told}"
    );
    // The room task ends right after telling its viewers.
    let started = Instant::now();
    while server.get_json("/api/rooms").await != json!([]) {
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "the room stays open"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let other = cid.create_room_with(waiting_room(None)).await;
    let metrics = server.get("/metrics").await.1;
    assert_eq!(metric(&metrics, "dominion_games_abandoned_total"), 1.0);

    let check_history = |listing: Value, game: Value| {
        let entry = listing
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["room"] == room.as_str())
            .unwrap_or_else(|| panic!("{room} is not in the history: {listing}"))
            .clone();
        assert_eq!(entry["outcome"], "abandoned", "{entry}");
        assert_eq!(entry["scores"], Value::Null, "{entry}");
        assert_eq!(game["outcome"], "abandoned", "{game}");
        let replay = Game::replay(&record_from_history(&game)).expect("the record replays");
        assert!(!replay.is_over(), "it ended unfinished");
        assert!(replay.replies().len() >= 3);
    };
    check_history(
        server.get_json("/api/games").await,
        server.get_json(&format!("/api/games/{room}")).await,
    );

    server.kill();
    let status: String = rusqlite::Connection::open(db_path(dir.path()))
        .unwrap()
        .query_row("SELECT status FROM rooms WHERE id = ?1", [&room], |r| {
            r.get(0)
        })
        .unwrap();
    assert_eq!(status, "abandoned");
    let server = ServerProcess::start_with(dir.path(), &flags).await;
    let rooms = server.get_json("/api/rooms").await;
    let open: Vec<&str> = rooms
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    assert_eq!(open, vec![other.as_str()], "only the lobby room reopens");
    let mut ann = Client::connect(server.addr, "Ann").await;
    let gone = ann
        .ask(json!({"type": "resume", "room": room, "token": ann_token}))
        .await;
    assert_eq!(gone["code"], "unknown_room", "{gone}");
    check_history(
        server.get_json("/api/games").await,
        server.get_json(&format!("/api/games/{room}")).await,
    );
}

/// The command ids a seat used survive `kill -9`: after the restart `seated` reports the
/// last one, and the last reply re-sent with its id is refused as a duplicate, not
/// judged again.
async fn a_seats_last_command_survives_a_restart(backend: Backend) {
    let store = TestStore::new(backend);
    let mut server = store.start(&[]).await;
    let mut ann = Client::connect(server.addr, "Ann").await;
    let room = ann.create_room_with(waiting_room(Some("big_money"))).await;
    ann.take_seat(&room).await;
    ann.start().await;
    let decision = ann.until(|v| v["type"] == "decision").await;
    let d = decision["decision"].as_u64().unwrap();
    let reply = simple_reply(&decision);
    let last = ann.reply(d, reply.clone()).await;
    let ack = ann.answer(last).await;
    assert_eq!(ack["type"], "ack", "{ack}");
    server.kill();
    assert_eq!(store.last_command(&room, 0), last);

    let server = store.start(&[]).await;
    let mut again = Client::connect(server.addr, "Ann").await;
    let seated = again
        .ask(json!({"type": "resume", "room": room, "token": ann.token}))
        .await;
    assert_eq!(seated["type"], "seated", "{seated}");
    assert_eq!(seated["last_command"], last, "{seated}");
    let resent = json!({"type": "reply", "id": last, "decision": d, "reply": reply});
    again.send(resent).await;
    let refused = again.answer(last).await;
    assert_eq!(refused["code"], "duplicate_command", "{refused}");
    // Numbered above it, play goes on.
    again.number_from(last);
    let next = again.until(|v| v["type"] == "decision").await;
    let id = again
        .reply(next["decision"].as_u64().unwrap(), simple_reply(&next))
        .await;
    assert_eq!(again.answer(id).await["type"], "ack");
}

/// A 64-hex-digit seat token, as the server hands out.
const OLD_TOKEN: &str = "5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed5eed";

/// Writes, with plain SQL, what the first release stored for a room of a player (seat 0,
/// token [`OLD_TOKEN`]) and a `big_money` bot that played `replies` replies: schema 1,
/// and after each reply the JSON `state_hash` as 16 hex digits. With `tamper`, the last
/// hash is off by one bit. Returns the replies.
fn write_first_release_room(
    conn: &rusqlite::Connection,
    room: &str,
    seed: u64,
    replies: usize,
    tamper: bool,
) -> Vec<(PlayerId, dominion_engine::Reply)> {
    let kingdom = Game::new(
        &Setup {
            players: 2,
            kingdom: Kingdom::Recommended("base_2e/first_game".into()),
            edition: Edition::Second,
        },
        seed,
    )
    .unwrap()
    .kingdom()
    .to_vec();
    let setup = Setup {
        players: 2,
        kingdom: Kingdom::Cards(kingdom),
        edition: Edition::Second,
    };
    // The first release played rules version 1 (the column's default for its games).
    let mut game = Game::new_under(&setup, seed, 1).unwrap();
    let hash = |g: &Game| format!("{:016x}", g.state_hash());
    let settings = json!({
        "kingdom": {"type": "recommended", "id": "base_2e/first_game"},
        "edition": "2e",
        "seats": [{"type": "open"}, {"type": "bot", "bot": "big_money"}],
        "abandoned": {"type": "wait"},
    });
    let token_hash = dominion_server::token::TokenHash::of(OLD_TOKEN).0.to_vec();
    conn.execute(
        "INSERT INTO rooms VALUES (?1, ?2, 'playing', NULL, 1700000000)",
        rusqlite::params![room, settings.to_string()],
    )
    .unwrap();
    conn.execute(
        "INSERT INTO seats VALUES (?1, 0, 'Ann', ?2, NULL)",
        rusqlite::params![room, token_hash],
    )
    .unwrap();
    conn.execute(
        "INSERT INTO seats VALUES (?1, 1, '', NULL, 'big_money')",
        [room],
    )
    .unwrap();
    // The hash after the last reply is filled in below.
    conn.execute(
        "INSERT INTO games VALUES (?1, ?2, ?3, '', 1700000000, NULL, NULL)",
        rusqlite::params![
            room,
            serde_json::to_string(&setup).unwrap(),
            seed.to_string()
        ],
    )
    .unwrap();
    let mut bots: Vec<_> = (0..2)
        .map(|i| bots::by_name("big_money", i).unwrap())
        .collect();
    let mut log = Vec::new();
    for seq in 0..replies {
        let req = game.pending().unwrap().clone();
        let reply =
            bots[req.player.idx()].decide(&Observation::for_player(&game, req.player), &req);
        game.reply(req.player, reply.clone()).unwrap();
        let mut h = hash(&game);
        if tamper && seq + 1 == replies {
            h = format!("{:016x}", game.state_hash() ^ 1);
        }
        conn.execute(
            "INSERT INTO replies VALUES (?1, ?2, ?3, ?4, ?5, 1700000001)",
            rusqlite::params![
                room,
                seq as i64,
                req.player.0,
                serde_json::to_string(&reply).unwrap(),
                h
            ],
        )
        .unwrap();
        log.push((req.player, reply));
    }
    let last: String = conn
        .query_row(
            "SELECT state_hash FROM replies WHERE room_id = ?1 ORDER BY seq DESC LIMIT 1",
            [room],
            |r| r.get(0),
        )
        .unwrap();
    conn.execute(
        "UPDATE games SET last_hash = ?2 WHERE room_id = ?1",
        rusqlite::params![room, last],
    )
    .unwrap();
    log
}

/// A database the first release left behind — schema 1, a game in progress whose log
/// carries JSON state hashes — is migrated on start; the game is verified with the old
/// hash, reopens, and its player resumes it and plays to the end, the new replies stored
/// with digests. A game whose old hash does not match is marked broken, as before.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_stored_by_the_first_release_reopens_and_ends() {
    let dir = tempfile::tempdir().expect("tempdir");
    let db = db_path(dir.path());
    let (old, bad) = ("oldgame1", "oldgame2");
    let written = {
        let conn = rusqlite::Connection::open(&db).unwrap();
        conn.execute_batch(dominion_store::schema_v1_sql()).unwrap();
        conn.execute_batch("PRAGMA user_version = 1").unwrap();
        write_first_release_room(&conn, bad, 99, 12, true);
        write_first_release_room(&conn, old, 12345, 12, false)
    };
    let server = ServerProcess::start(dir.path()).await;
    let mut ann = Client::connect(server.addr, "Ann").await;
    let seated = ann
        .ask(json!({"type": "resume", "room": old, "token": OLD_TOKEN}))
        .await;
    assert_eq!(seated["type"], "seated", "{seated}");
    assert_eq!(
        seated["last_command"], 0,
        "the first release kept no command ids"
    );
    ann.number_from(1);
    let over = tokio::time::timeout(Duration::from_secs(60), ann.play_to_end(Duration::ZERO))
        .await
        .expect("the game ends within 60 s");
    assert_eq!(over["type"], "game_over");
    let history = server.get_json(&format!("/api/games/{old}")).await;
    let record = record_from_history(&history);
    assert_eq!(
        record.replies[..written.len()],
        written[..],
        "the old replies stay"
    );
    let mut refused = Client::connect(server.addr, "Ann").await;
    let answer = refused
        .ask(json!({"type": "resume", "room": bad, "token": OLD_TOKEN}))
        .await;
    assert_eq!(answer["type"], "error", "{answer}");
    assert!(
        answer["message"].as_str().unwrap().contains("state hash"),
        "{answer}"
    );
    drop(server);

    // In the file: the schema is current, the old hashes are as they were, and every
    // reply after the upgrade carries the digest of the state after it.
    let conn = rusqlite::Connection::open(&db).unwrap();
    let version: i64 = conn
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap();
    assert_eq!(version, dominion_store::SCHEMA_VERSION);
    let stored = stored_game(&db, old).unwrap();
    // It went on to its end under the rules it began with (version 1).
    assert_eq!(record.rules, 1);
    let mut game = Game::new_under(&record.setup, record.seed, record.rules).unwrap();
    for (i, ((p, r), (_, _, hash))) in record.replies.iter().zip(&stored.replies).enumerate() {
        game.reply(*p, r.clone()).unwrap();
        if i < written.len() {
            assert_eq!(*hash, format!("{:016x}", game.state_hash()), "reply {i}");
        } else {
            assert_eq!(parse_digest(hash), game.digest(), "reply {i}");
        }
    }
    assert!(stored.finished);
    let (status, reason): (String, String) = conn
        .query_row(
            "SELECT status, broken_reason FROM rooms WHERE id = ?1",
            [bad],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    assert_eq!(status, "broken");
    assert!(reason.contains("state hash after 12 replies"), "{reason}");
}
