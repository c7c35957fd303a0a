//! What reopening long games costs the server itself (figures in docs/load.md, "Reopen
//! from snapshots", "At the server: restart and takeover of 200 rooms"): the store's
//! reads, the rebuild and the rooms' start, through the server's own code, on SQLite and
//! on PostgreSQL, with and without stored snapshots.
//!
//! `cargo run --release -p dominion-server --example takeover -- [--rooms 200]
//! [--turn 100] [--runs 3] [--every 0,50] [--backend sqlite,postgres] [--lock FILE]`
//!
//! For each backend and each `--every` it writes `--rooms` unfinished 6-player games
//! through the server's durable log (`DurableLog`, the `RoomLog` a room writes through:
//! room, start, every reply with its digest, and a snapshot where a room with
//! `--snapshot-every N` would take one): six `random` bots on random kingdoms of every
//! card, played until the turn counter (all seats' turns together) reaches `--turn`, six
//! human seats whose players are away (so no reopened room plays on by itself). Then,
//! `--runs` times each:
//!
//! - **one room**: `DurableLog::recover_one` (what a takeover runs for a room: its rows
//!   read on the store's reading thread, the game rebuilt and checked against the stored
//!   digest), the median of 21 different rooms;
//! - **recover**: `DurableLog::recover`, which a single node's start runs for every
//!   room in the store;
//! - **start**: `dominion_server::serve` in this process on that store (PostgreSQL: a
//!   single node with `--database`), from the call until it logs `listening on` (the
//!   store opened, every room reopened, ready), against the same on an empty store;
//! - **takeover** (PostgreSQL only, as a cluster needs it): `serve` with `--cluster` on a
//!   fresh Redis and a fresh copy of the database, whose rooms nobody holds; its sweep
//!   takes every room (lease, claim, `recover_one`, reopen, one after the other). Timed
//!   from the call to each `room taken over` it logs: the first (which includes the
//!   node's start and the sweep's random delay of up to 128 ms), the last, and the
//!   median gap between two (one room's takeover).
//!
//! PostgreSQL and Redis are the test kit's (`dominion_testkit`: the machine's binaries on
//! loopback; PostgreSQL with `fsync=off`). With `--lock FILE` each timing holds an
//! exclusive `flock` on FILE (as `flock FILE cmd` would), so that timings of several
//! tools on one machine do not overlap; the load average is printed before and after.

use dominion_engine::setup::CardPool;
use dominion_engine::snapshot::Mark;
use dominion_engine::{Edition, Game, Kingdom, Observation, Setup, bots};
use dominion_server::Config;
use dominion_server::gamelog::durable::DurableLog;
use dominion_server::gamelog::{RoomLog, RoomRecord, SeatRecord};
use dominion_server::metrics::Metrics;
use dominion_server::token::TokenHash;
use dominion_testkit::{TempPostgres, TempRedis};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tracing_subscriber::layer::SubscriberExt;

/// The server's log lines this tool times, as they happen.
static EVENTS: Mutex<Vec<(Instant, String)>> = Mutex::new(Vec::new());

/// Records the server's INFO lines with their time; prints its warnings and errors.
struct Timestamps;

impl<S: tracing::Subscriber> tracing_subscriber::Layer<S> for Timestamps {
    fn on_event(&self, event: &tracing::Event<'_>, _: tracing_subscriber::layer::Context<'_, S>) {
        let meta = event.metadata();
        if !meta.target().starts_with("dominion") || *meta.level() > tracing::Level::INFO {
            return;
        }
        struct Message(String);
        impl tracing::field::Visit for Message {
            fn record_debug(&mut self, field: &tracing::field::Field, value: &dyn std::fmt::Debug) {
                if field.name() == "message" {
                    self.0 = format!("{value:?}");
                }
            }
        }
        let mut m = Message(String::new());
        event.record(&mut m);
        if *meta.level() <= tracing::Level::WARN {
            eprintln!("server {}: {}", meta.level(), m.0);
        }
        let at = Instant::now();
        EVENTS.lock().unwrap().push((at, m.0));
    }
}

/// The times (since `t0`) of the recorded lines that start with `what`.
fn times(t0: Instant, what: &str) -> Vec<f64> {
    EVENTS
        .lock()
        .unwrap()
        .iter()
        .filter(|(at, m)| *at >= t0 && m.starts_with(what))
        .map(|(at, _)| at.duration_since(t0).as_secs_f64() * 1e3)
        .collect()
}

fn arg(name: &str, default: &str) -> String {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .cloned()
        .unwrap_or_else(|| default.to_string())
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a runtime")
}

fn loadavg() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_default()
}

/// Holds `--lock`'s file locked (flock) while alive.
struct Lock {
    _file: Option<std::fs::File>,
}

fn lock() -> Lock {
    let path = arg("--lock", "");
    if path.is_empty() {
        return Lock { _file: None };
    }
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .expect("the lock file");
    use std::os::fd::AsRawFd;
    // SAFETY: flock on a descriptor we own; released when the file is closed.
    let r = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX) };
    assert_eq!(r, 0, "flock {path}");
    Lock { _file: Some(file) }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// What the generated games are like.
#[derive(Default)]
struct Written {
    replies: usize,
    snapshots: usize,
    turns: Vec<u32>,
}

/// Writes `rooms` games through the durable log, as rooms would.
async fn write_games(log: &DurableLog, rooms: usize, turn: u32, every: u64) -> Written {
    let mut w = Written::default();
    let settings: dominion_protocol::RoomSettings = serde_json::from_value(serde_json::json!({
        "kingdom": {"type": "random", "pool": "both"},
        "edition": "2e",
        "seats": [{"type": "open"}, {"type": "open"}, {"type": "open"},
                  {"type": "open"}, {"type": "open"}, {"type": "open"}],
    }))
    .expect("settings");
    for i in 0..rooms {
        let id = room_id(i);
        let seed = 1000 + i as u64;
        let seats = (0..6)
            .map(|s| {
                SeatRecord::human(
                    &format!("P{s}"),
                    TokenHash::of(&format!("{id}-{s}")),
                    0,
                    None,
                )
            })
            .collect();
        log.room_saved(&RoomRecord {
            id: id.clone(),
            settings: settings.clone(),
            host: Some(0),
            seats,
        })
        .await
        .expect("room stored");
        let setup = Setup {
            players: 6,
            kingdom: Kingdom::RandomFrom(CardPool::Both),
            edition: Edition::Second,
        };
        let mut g = Game::new(&setup, seed).expect("a game");
        let drawn = Setup {
            kingdom: Kingdom::Cards(g.kingdom().to_vec()),
            ..setup
        };
        let mut commits = vec![log.game_started(&id, &drawn, seed, g.digest(), Some((0, 1)))];
        let mut agents: Vec<_> = (0..6)
            .map(|s| bots::by_name("random", seed * 7 + s).expect("the random bot"))
            .collect();
        let mut command = [1u64; 6];
        let mut mark = Mark::default();
        while let Some(req) = g.pending().cloned() {
            if g.state().turn_count >= turn && g.at_snapshot_point() {
                break;
            }
            let p = req.player.idx();
            let reply = agents[p].decide(&Observation::for_player(&g, req.player), &req);
            let index = g.replies().len() as u64;
            g.answer(req.player, reply.clone()).expect("a legal reply");
            command[p] += 1;
            commits.push(log.reply_accepted(
                &id,
                index,
                req.player,
                &reply,
                g.digest(),
                Some(command[p]),
            ));
            // As `Room::take_snapshot` with `--snapshot-every every`.
            if every > 0
                && g.replies().len() as u64 >= mark.replies + every
                && g.at_snapshot_point()
                && let Some(s) = g.snapshot(mark)
            {
                commits.push(log.snapshot_taken(&id, &s));
                mark = s.end();
                w.snapshots += 1;
            }
        }
        assert!(
            g.pending().is_some(),
            "room {id}: the game ended before turn {turn}"
        );
        for c in commits {
            c.await.expect("stored");
        }
        w.replies += g.replies().len();
        w.turns.push(g.state().turn_count);
    }
    w
}

fn room_id(i: usize) -> String {
    format!("tk{i:06}")
}

/// One backend's store for one `--every`.
struct Store {
    config: Config,
    /// The PostgreSQL database's name, to copy it for a takeover.
    pg_name: Option<String>,
    _dir: tempfile::TempDir,
}

fn base_config(dir: &std::path::Path, every: u64) -> Config {
    Config {
        data_dir: dir.to_path_buf(),
        snapshot_every: every,
        shutdown_grace: Duration::from_millis(200),
        ..Config::default()
    }
}

fn new_store(backend: &str, every: u64) -> Store {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let mut config = base_config(dir.path(), every);
    let mut pg_name = None;
    if backend == "postgres" {
        let url = TempPostgres::shared().fresh_database();
        pg_name = url.rsplit('/').next().map(str::to_string);
        config.database = Some(url);
    }
    Store {
        config,
        pg_name,
        _dir: dir,
    }
}

fn open(config: &Config) -> Arc<DurableLog> {
    let database = config.store_database().expect("the database");
    Arc::new(DurableLog::open(&database, Arc::new(Metrics::new())).expect("the store opens"))
}

/// `serve` on `config` until it logs `listening on`, or (`takeovers` > 0) until it has
/// logged that many `room taken over`; then shut down. The times of those lines, from
/// the call.
fn serve_until(config: Config, takeovers: usize) -> (f64, Vec<f64>) {
    let rt = runtime();
    let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
    let t0 = Instant::now();
    let server = rt.spawn(async move {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        dominion_server::serve(config, listener, async move {
            let _ = stop_rx.await;
        })
        .await
    });
    let deadline = t0 + Duration::from_secs(600);
    let (ready, taken) = loop {
        std::thread::sleep(Duration::from_millis(1));
        let ready = times(t0, "listening on");
        let taken = times(t0, "room taken over");
        if !ready.is_empty() && taken.len() >= takeovers {
            break (ready[0], taken);
        }
        assert!(
            Instant::now() < deadline,
            "the server did not get there in 600 s"
        );
        assert!(!server.is_finished(), "the server stopped");
    };
    let _ = stop_tx.send(());
    let _ = rt.block_on(async { tokio::time::timeout(Duration::from_secs(30), server).await });
    rt.shutdown_timeout(Duration::from_secs(5));
    (ready, taken)
}

/// `CREATE DATABASE copy TEMPLATE name`, retried while the connections of a store
/// just dropped are still closing (a template must have none).
fn copy_database(name: &str, copy: &str) {
    let admin = TempPostgres::shared().url("postgres");
    let sql = format!("CREATE DATABASE {copy} TEMPLATE {name}");
    for _ in 0..100 {
        let mut client = postgres::Client::connect(&admin, postgres::NoTls).expect("connect");
        match client.batch_execute(&sql) {
            Ok(()) => return,
            Err(e) if format!("{e:?}").contains("being accessed") => {
                std::thread::sleep(Duration::from_millis(100));
            }
            Err(e) => panic!("{sql}: {e}"),
        }
    }
    panic!("{sql}: the template stayed in use");
}

fn main() {
    tracing::subscriber::set_global_default(tracing_subscriber::registry().with(Timestamps))
        .expect("the only subscriber");
    let rooms: usize = arg("--rooms", "200").parse().expect("--rooms N");
    let turn: u32 = arg("--turn", "100").parse().expect("--turn N");
    let runs: usize = arg("--runs", "3").parse().expect("--runs N");
    let everys: Vec<u64> = arg("--every", "0,50")
        .split(',')
        .map(|e| e.parse().expect("--every N,M"))
        .collect();
    let backends = arg("--backend", "sqlite,postgres");
    let ttl = Config::default().finished_room_ttl;
    for backend in backends.split(',') {
        let empty = new_store(backend, 0);
        for &every in &everys {
            let store = new_store(backend, every);
            let w = {
                let rt = runtime();
                let log = open(&store.config);
                let t = Instant::now();
                let w = rt.block_on(write_games(&log, rooms, turn, every));
                drop(log);
                println!(
                    "{backend}, --snapshot-every {every}: {rooms} games written in {:.1} s: {} replies, {} snapshots, turns {}..{}",
                    t.elapsed().as_secs_f64(),
                    w.replies,
                    w.snapshots,
                    w.turns.iter().min().unwrap_or(&0),
                    w.turns.iter().max().unwrap_or(&0)
                );
                w
            };
            let _ = w;
            for run in 1..=runs {
                // One room, and every room, through the durable log.
                let (one, all) = {
                    let rt = runtime();
                    let log = open(&store.config);
                    let _lock = lock();
                    let before = loadavg();
                    let ids: Vec<String> = (0..21.min(rooms)).map(room_id).collect();
                    let (one, all) = rt.block_on(async {
                        let mut each = Vec::new();
                        for id in &ids {
                            let t = Instant::now();
                            let r = log.recover_one(id, ttl).await.expect("recovered");
                            each.push(t.elapsed().as_secs_f64() * 1e3);
                            assert!(r.and_then(|r| r.game).is_some(), "room {id} reopens");
                        }
                        let t = Instant::now();
                        let (ok, broken) = log.recover(ttl).await.expect("recovered");
                        let all = t.elapsed().as_secs_f64() * 1e3;
                        assert_eq!((ok.len(), broken.len()), (rooms, 0));
                        (median(each), all)
                    });
                    println!(
                        "{backend} every {every} run {run}: load {before} -> {}: one room (recover_one, median of {}) {one:.2} ms; recover {rooms} rooms {all:.0} ms",
                        loadavg(),
                        ids.len()
                    );
                    drop(log);
                    (one, all)
                };
                let _ = (one, all);
                // A single node's start, against an empty store's.
                {
                    let _lock = lock();
                    let before = loadavg();
                    let (base, _) = serve_until(empty.config.clone(), 0);
                    let (ready, _) = serve_until(store.config.clone(), 0);
                    println!(
                        "{backend} every {every} run {run}: load {before} -> {}: start to `listening on`: {ready:.0} ms with {rooms} rooms, {base:.0} ms with none",
                        loadavg()
                    );
                }
                // A cluster node taking every room over.
                if let Some(name) = &store.pg_name {
                    let copy = format!("{name}_run{run}");
                    copy_database(name, &copy);
                    let redis = TempRedis::start().unwrap_or_else(|e| panic!("{e}"));
                    let config = Config {
                        database: Some(TempPostgres::shared().url(&copy)),
                        cluster: Some(redis.url()),
                        node_id: Some(format!("taker{run}")),
                        ..store.config.clone()
                    };
                    let _lock = lock();
                    let before = loadavg();
                    let (ready, taken) = serve_until(config, rooms);
                    let first = taken[0];
                    let last = taken[rooms - 1];
                    let gap = median(taken.windows(2).map(|w| w[1] - w[0]).collect());
                    println!(
                        "{backend} every {every} run {run}: load {before} -> {}: takeover: ready {ready:.0} ms, first room {first:.0} ms, last {last:.0} ms (first to last {:.0} ms), one room (median gap) {gap:.2} ms",
                        loadavg(),
                        last - first
                    );
                    drop(redis);
                }
            }
        }
    }
}
