//! The store behind the server beyond what every other test runs on both backends: a
//! server on PostgreSQL in this very process (the blocking PostgreSQL client panics on an
//! async runtime's threads, so any such call would fail this test), `--database`
//! checked at start, and the fencing hook a cluster node uses to own rooms.

use crate::common::{Client, config};
use crate::process::{
    Backend, ServerProcess, TestStore, http_get, on_both_backends, on_pg, replay_history,
    server_command,
};
use dominion_engine::view::Observation;
use dominion_engine::{Edition, Game, Kingdom, Setup, bots};
use dominion_server::gamelog::durable::DurableLog;
use dominion_server::gamelog::{LogError, RoomLog, RoomRecord, SeatRecord};
use dominion_server::metrics::Metrics;
use dominion_server::token::TokenHash;
use dominion_testkit::TempPostgres;
use serde_json::json;
use std::io::Read;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A server in this process, stopped by the returned sender.
async fn serve_in_process(
    cfg: dominion_server::Config,
) -> (
    std::net::SocketAddr,
    tokio::sync::oneshot::Sender<()>,
    tokio::task::JoinHandle<std::io::Result<()>>,
) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let task = tokio::spawn(dominion_server::serve(cfg, listener, async move {
        let _ = stopped.await;
    }));
    (addr, stop, task)
}

/// Plays part of a game on one in-process server, stops it, reopens the room on a second
/// one (recovery reads PostgreSQL from inside `serve`), plays to the end there and reads
/// the history API (its handlers read from inside the runtime too).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(
    not(have_postgres),
    ignore = "needs PostgreSQL — run scripts/setup-test-deps.sh"
)]
async fn an_in_process_server_on_postgres_plays_reopens_and_serves_history() {
    let url = TempPostgres::shared().fresh_database();
    let mut cfg = config();
    cfg.database = Some(url.clone());
    let (addr, stop, first) = serve_in_process(cfg.clone()).await;
    let mut ann = Client::connect(addr, "Ann").await;
    let room = ann
        .create_room(json!([{"type": "open"}, {"type": "bot", "bot": "big_money"}]))
        .await;
    ann.take_seat(&room).await;
    ann.start().await;
    ann.play_decisions(6).await;
    // The game waits for Ann again: nothing more is written by the first server.
    let waiting = ann.until(|v| v["type"] == "decision").await;
    let (token, last_event) = (ann.token.clone(), ann.last_event);
    drop(ann);
    let _ = stop.send(());
    first
        .await
        .unwrap()
        .expect("the first server stops cleanly");
    assert!(
        !cfg.data_dir.exists(),
        "with --database nothing is written to the data directory"
    );

    let (addr, stop, second) = serve_in_process(cfg).await;
    let mut ann = Client::connect(addr, "Ann").await;
    let seated = ann
        .ask(json!({"type": "resume", "room": room, "token": token, "last_event": last_event}))
        .await;
    assert_eq!(seated["type"], "seated", "{seated}");
    ann.number_from(seated["last_command"].as_u64().unwrap());
    let again = ann.until(|v| v["type"] == "decision").await;
    assert_eq!(
        again["decision"], waiting["decision"],
        "the same decision after the restart"
    );
    ann.send(json!({"type": "reply", "id": ann.last_id() + 1, "decision": again["decision"], "reply": crate::common::simple_reply(&again)})).await;
    ann.number_from(ann.last_id() + 1);
    let over = tokio::time::timeout(Duration::from_secs(120), ann.play_to_end(Duration::ZERO))
        .await
        .expect("the game ends within 120 s");
    let (status, body) = http_get(addr, &format!("/api/games/{room}")).await;
    assert_eq!(status, 200, "{body}");
    let record: serde_json::Value = serde_json::from_str(&body).unwrap();
    let game = replay_history(&record).expect("the record replays");
    assert_eq!(
        crate::process::wire_scores(&game.scores()),
        crate::process::score_fields(&over["scores"])
    );
    let (status, listing) = http_get(addr, "/api/games").await;
    assert!(
        status == 200 && listing.contains(&room),
        "{status} {listing}"
    );
    drop(ann);
    let _ = stop.send(());
    second
        .await
        .unwrap()
        .expect("the second server stops cleanly");
}

/// Runs the server binary with `args` until it exits (bounded); its exit code and
/// everything it printed.
fn run_to_exit(args: &[&str], env: &[(&str, &str)]) -> (Option<i32>, String) {
    let dir = tempfile::tempdir().unwrap();
    let mut cmd = server_command(env);
    cmd.arg("--data-dir")
        .arg(dir.path().join("data"))
        .args(args);
    let mut child = cmd.spawn().expect("start the server");
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            panic!("the server did not exit within 60 s: {args:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut out = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    (status.code(), out)
}

/// A `--database` that is not a PostgreSQL URL is a configuration error (78); a server
/// that cannot be reached, or a schema from a newer release, fail the start (1); each
/// says what is wrong, never with the password. `backup` points PostgreSQL users to
/// `pg_dump`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(
    not(have_postgres),
    ignore = "needs PostgreSQL — run scripts/setup-test-deps.sh"
)]
async fn a_database_that_cannot_be_used_is_refused_at_start_with_the_reason() {
    let (code, out) = run_to_exit(&["--database", "mysql://root:hunter2@db/dominion"], &[]);
    assert_eq!(code, Some(78), "{out}");
    assert!(out.contains("is not a PostgreSQL URL"), "{out}");
    assert!(!out.contains("hunter2"), "{out}");

    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = closed.local_addr().unwrap().port();
    drop(closed);
    let unreachable = format!("postgres://dominion:hunter2@127.0.0.1:{port}/dominion");
    let (code, out) = run_to_exit(&[], &[("DOMINION_DATABASE", &unreachable)]);
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.contains(&format!(
            "cannot connect to postgres://dominion:***@127.0.0.1:{port}/dominion"
        )),
        "{out}"
    );
    assert!(!out.contains("hunter2"), "{out}");

    let pg = TempPostgres::shared();
    let url = pg.fresh_database();
    let store = TestStore::new(Backend::Postgres);
    drop(store.start(&[]).await); // creates the schema
    pg.execute(
        store.url().unwrap(),
        "UPDATE schema_version SET version = 99",
    );
    let (code, out) = run_to_exit(&["--database", store.url().unwrap()], &[]);
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.contains("99 is newer than this server understands"),
        "{out}"
    );

    let (code, out) = run_to_exit(&["--database", &url, "backup", "/tmp/never-written"], &[]);
    assert_ne!(code, Some(0), "{out}");
    assert!(out.contains("pg_dump"), "{out}");
}

/// `DOMINION_DATABASE` selects PostgreSQL as `--database` does.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(
    not(have_postgres),
    ignore = "needs PostgreSQL — run scripts/setup-test-deps.sh"
)]
async fn the_environment_can_name_the_database() {
    let url = TempPostgres::shared().fresh_database();
    let dir = tempfile::tempdir().unwrap();
    let server =
        ServerProcess::start_with_env(dir.path(), &[], &[("DOMINION_DATABASE", &url)]).await;
    let mut ann = Client::connect(server.addr, "Ann").await;
    let room = ann
        .create_room(json!([{"type": "open"}, {"type": "open"}]))
        .await;
    let stored: i64 = on_pg(&url, move |c| {
        Ok(
            c.query_one("SELECT COUNT(*) FROM rooms WHERE id = $1", &[&room])?
                .get(0),
        )
    });
    assert_eq!(stored, 1);
    assert!(
        !dir.path().join(dominion_store::DB_FILE).exists(),
        "no SQLite file beside it"
    );
}

on_both_backends!(a_room_writes_only_under_its_fence_and_a_takeover_rebuilds_it);

/// Two nodes' logs on one store. With fencing on, a room's write needs the room's fence:
/// refused at once without one; after node B claims the room, node A's next write is
/// refused by the store and changes nothing; B rebuilds the room from the log and goes
/// on; the audit shows who wrote which reply.
async fn a_room_writes_only_under_its_fence_and_a_takeover_rebuilds_it(backend: Backend) {
    let store = TestStore::new(backend);
    let open = || {
        let database = store.database();
        tokio::task::spawn_blocking(move || DurableLog::open(&database, Arc::new(Metrics::new())))
    };
    let a = open().await.unwrap().expect("node A's log");
    let b = open().await.unwrap().expect("node B's log");
    a.fences().enable();
    b.fences().enable();
    let fenced = Err(LogError::Fenced { room: "r".into() });
    let record = RoomRecord {
        id: "r".into(),
        settings: serde_json::from_value(json!({
            "kingdom": {"type": "recommended", "id": "base_2e/first_game"},
            "seats": [{"type": "open"}, {"type": "bot", "bot": "big_money"}],
        }))
        .unwrap(),
        host: Some(0),
        seats: vec![
            SeatRecord::human("Ann", TokenHash::of("ann's token"), 0, None),
            SeatRecord::Bot {
                bot: "big_money".into(),
            },
        ],
    };
    assert_eq!(a.room_saved(&record).await, fenced, "no fence, no write");
    a.claim("r", "node-a", 1).await.unwrap();
    a.room_saved(&record).await.unwrap();

    let kingdom = Game::new(
        &Setup {
            players: 2,
            kingdom: Kingdom::Recommended("base_2e/first_game".into()),
            edition: Edition::Second,
        },
        7,
    )
    .unwrap()
    .kingdom()
    .to_vec();
    let setup = Setup {
        players: 2,
        kingdom: Kingdom::Cards(kingdom),
        edition: Edition::Second,
    };
    let mut game = Game::new(&setup, 7).unwrap();
    a.game_started("r", &setup, 7, game.digest(), None)
        .await
        .unwrap();
    let mut players: Vec<_> = (0..2)
        .map(|i| bots::by_name("big_money", i).unwrap())
        .collect();
    let mut step = |game: &mut Game| {
        let req = game.pending().unwrap().clone();
        let reply =
            players[req.player.idx()].decide(&Observation::for_player(game, req.player), &req);
        game.reply(req.player, reply.clone()).unwrap();
        (req.player, reply)
    };
    for i in 0..10 {
        let (player, reply) = step(&mut game);
        a.reply_accepted("r", i, player, &reply, game.digest(), None)
            .await
            .unwrap();
    }
    let digest_after_10 = game.digest();

    b.claim("r", "node-b", 2).await.unwrap();
    let (player, reply) = step(&mut game);
    assert_eq!(
        a.reply_accepted("r", 10, player, &reply, game.digest(), None)
            .await,
        fenced,
        "node A lost the room: its write is refused"
    );
    assert!(
        a.claim("r", "node-a", 1).await.is_err(),
        "an old token claims nothing"
    );

    let ttl = Duration::from_secs(600);
    assert_eq!(b.live_room_ids(ttl).await.unwrap(), vec!["r".to_string()]);
    let rebuilt = b
        .recover_one("r", ttl)
        .await
        .unwrap()
        .expect("the room reopens on node B");
    let rebuilt_game = rebuilt.game.expect("with its game").game;
    assert_eq!(
        rebuilt_game.digest(),
        digest_after_10,
        "B's game is the log's: ten replies, not A's refused eleventh"
    );
    b.reply_accepted("r", 10, player, &reply, game.digest(), None)
        .await
        .unwrap();
    assert!(b.recover_one("nowhere", ttl).await.unwrap().is_none());
    let writers = b.read(|v| v.reply_writers("r")).await.unwrap();
    let tokens: Vec<_> = writers
        .iter()
        .map(|w| (w.node.as_deref(), w.token))
        .collect();
    let expected: Vec<_> = (0..10)
        .map(|_| (Some("node-a"), Some(1)))
        .chain([(Some("node-b"), Some(2))])
        .collect();
    assert_eq!(tokens, expected);
    let claims = b.read(|v| v.claims("r")).await.unwrap();
    assert_eq!(
        claims.iter().map(|c| c.token).collect::<Vec<_>>(),
        vec![1, 2]
    );
}
