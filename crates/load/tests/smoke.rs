//! The load tool against a real server on 127.0.0.1 port 0 (in this process, so its
//! `--pid` is ours): it must complete its runs and report what happened, exactly where
//! the counts are exact. No figure of speed is asserted: CI machines differ.

use dominion_server::Config;
use serde_json::Value;
use std::net::SocketAddr;
use std::process::Output;
use std::time::Duration;

const BIN: &str = env!("CARGO_BIN_EXE_dominion-load");

/// Longest a run may take before the test calls it hung (not a timing assertion: runs
/// of a few games take a second or two even in debug builds).
const HANG: Duration = Duration::from_secs(300);

async fn server(tweak: impl FnOnce(&mut Config)) -> (SocketAddr, tempfile::TempDir) {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut config = Config {
        data_dir: dir.path().to_path_buf(),
        bot_delay: Duration::ZERO,
        // The load clients answer at machine speed.
        rate_messages: 1_000_000,
        rate_window: Duration::from_secs(1),
        // Every game is a new room, all from 127.0.0.1.
        rooms_per_connection: 1_000_000,
        rooms_per_address: 1_000_000,
        live_rooms_per_address: 1_000_000,
        search_rooms_per_address: 1_000_000,
        connections_per_address: 1_000_000,
        ..Config::default()
    };
    tweak(&mut config);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind 127.0.0.1:0");
    let addr = listener.local_addr().expect("local addr");
    tokio::spawn(async move {
        dominion_server::serve(config, listener, std::future::pending())
            .await
            .expect("server");
    });
    (addr, dir)
}

async fn load(args: &[&str]) -> Output {
    let run = tokio::process::Command::new(BIN)
        .args(args)
        .kill_on_drop(true)
        .output();
    tokio::time::timeout(HANG, run)
        .await
        .unwrap_or_else(|_| panic!("dominion-load {args:?} did not finish within {HANG:?}"))
        .expect("run dominion-load")
}

fn json(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "not a JSON summary ({e}):\nstdout: {}\nstderr: {}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn play_completes_its_games_and_reports_them() {
    let (addr, _dir) = server(|_| {}).await;
    let (addr, pid) = (addr.to_string(), std::process::id().to_string());
    let out = load(&[
        "play", "--addr", &addr, "--rooms", "2", "--games", "2", "--pid", &pid, "--json",
    ])
    .await;
    let s = json(&out);
    assert!(out.status.success(), "{s:#}");
    assert_eq!(s["mode"], "play");
    assert_eq!(s["rooms"], 2);
    assert_eq!(s["rooms_failed"], 0, "{s:#}");
    assert_eq!(s["games"], 4, "2 rooms × 2 games: {s:#}");
    let decisions = s["decisions"].as_u64().unwrap();
    assert!(
        decisions >= 4 * 10,
        "a game takes dozens of decisions: {s:#}"
    );
    // Every decision but a game's first follows a reply, and every game's last reply is
    // followed by its game_over: one sample per decision.
    assert_eq!(s["reply_to_next_decision"]["samples"], decisions, "{s:#}");
    let l = &s["reply_to_next_decision"];
    assert!(l["p50_us"].as_u64() <= l["p99_us"].as_u64());
    assert!(l["p99_us"].as_u64() <= l["max_us"].as_u64());
    assert!(s["decisions_per_s"].as_f64().unwrap() > 0.0);
    assert_eq!(s["server"]["pid"], std::process::id());
    assert!(
        s["server"]["after"]["rss_kb"].as_u64().unwrap() > 0,
        "{s:#}"
    );
    assert!(s["server"]["cpu_us_per_decision"].is_number(), "{s:#}");

    // The text summary says the same in words.
    let out = load(&["play", "--addr", &addr, "--rooms", "1", "--games", "1"]).await;
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("play: 1 rooms × 2 socket players"), "{text}");
    assert!(text.contains("games 1 "), "{text}");
    assert!(text.contains("decisions/s"), "{text}");
    assert!(text.contains("answering at once"), "{text}");
}

/// Several nodes: rooms go round them, and the summary names them and gives each its
/// CPU and memory. Two independent servers stand in for a cluster with players on the
/// room's own node; one server listed twice takes the `--players-via other` path (each
/// room's creator and players on different connections and different list entries)
/// without needing forwarding.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn play_spreads_rooms_over_a_list_of_nodes() {
    let (a, _dir_a) = server(|_| {}).await;
    let (b, _dir_b) = server(|_| {}).await;
    let pid = std::process::id().to_string();
    let (nodes, pids) = (format!("{a},{b}"), format!("{pid},{pid}"));
    let out = load(&[
        "play", "--addr", &nodes, "--rooms", "3", "--games", "1", "--pid", &pids, "--json",
    ])
    .await;
    let s = json(&out);
    assert!(out.status.success(), "{s:#}");
    assert_eq!(
        s["nodes"],
        serde_json::json!([a.to_string(), b.to_string()])
    );
    assert_eq!(s["target"], nodes);
    assert_eq!(s["players_via"], "owner");
    assert_eq!(s["connections"], 6, "3 rooms × 2 players: {s:#}");
    assert_eq!(s["games"], 3, "{s:#}");
    assert_eq!(s["rooms_failed"], 0, "{s:#}");
    let per_node = s["server_nodes"].as_array().expect("per node");
    assert_eq!(per_node.len(), 2, "{s:#}");
    assert_eq!(per_node[1]["node"], b.to_string());
    // Both nodes are this process: it counts once in the sum.
    let rss = |u: &Value| u["after"]["rss_kb"].as_u64().unwrap();
    assert_eq!(rss(&s["server"]), rss(&per_node[0]), "{s:#}");
    assert_eq!(s["server"]["pid"], Value::Null, "{s:#}");

    let twice = format!("{a},{a}");
    let out = load(&[
        "play",
        "--addr",
        &twice,
        "--players-via",
        "other",
        "--rooms",
        "2",
        "--games",
        "2",
    ])
    .await;
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("games 4 "), "{text}");
    assert!(text.contains("2 nodes, players via other"), "{text}");
    assert!(
        text.contains("; 6 connections"),
        "2 rooms × (2 players + 1 creator): {text}"
    );

    let out = load(&["play", "--addr", &a.to_string(), "--players-via", "other"]).await;
    assert_eq!(out.status.code(), Some(2), "refused before it began");
    assert!(String::from_utf8_lossy(&out.stderr).contains("needs at least two nodes"));
}

/// `--think` makes every player pause before each answer: one room's game then lasts at
/// least its decisions × the pause (a lower bound the pauses guarantee, not a speed).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn think_pauses_before_every_answer() {
    let (addr, _dir) = server(|_| {}).await;
    let addr = addr.to_string();
    let out = load(&[
        "play", "--addr", &addr, "--rooms", "1", "--games", "1", "--think", "3ms", "--json",
    ])
    .await;
    let s = json(&out);
    assert!(out.status.success(), "{s:#}");
    assert_eq!(s["think_ms"], 3.0);
    assert_eq!(s["games"], 1, "{s:#}");
    let decisions = s["decisions"].as_u64().unwrap() as f64;
    assert!(
        s["elapsed_s"].as_f64().unwrap() >= decisions * 0.003,
        "{decisions} pauses of 3 ms: {s:#}"
    );
    let out = load(&["play", "--addr", &addr, "--think", "11s"]).await;
    assert_eq!(out.status.code(), Some(2), "refused before it began");
    assert!(String::from_utf8_lossy(&out.stderr).contains("--think must be at most 10s"));
}

/// `bots`: rooms of server bots from several source addresses, a player in each who
/// stays, and meanwhile the measured humans and `/healthz`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bots_runs_rooms_of_bots_beside_the_measured_humans() {
    let (addr, _dir) = server(|c| c.bot_think_ms = 2).await;
    let (addr, pid) = (addr.to_string(), std::process::id().to_string());
    let out = load(&[
        "bots",
        "--addr",
        &addr,
        "--rooms",
        "3",
        "--bots-per-room",
        "2",
        "--sources",
        "2",
        "--warmup",
        "200ms",
        "--duration",
        "1s",
        "--measure-rooms",
        "1",
        "--think",
        "5ms",
        "--healthz-every",
        "50ms",
        "--pid",
        &pid,
        "--json",
    ])
    .await;
    let s = json(&out);
    assert!(out.status.success(), "{s:#}");
    assert_eq!(s["mode"], "bots");
    assert_eq!(s["bot"], "search");
    assert_eq!(s["human"], "stays");
    assert_eq!(s["bot_rooms_started"], 3, "{s:#}");
    assert_eq!(s["bot_rooms_failed"], 0, "{s:#}");
    assert!(s["healthz"]["asked"].as_u64().unwrap() > 0, "{s:#}");
    assert_eq!(s["healthz"]["failed"], 0, "{s:#}");
    assert!(s["measured"]["decisions"].as_u64().unwrap() > 0, "{s:#}");
    assert_eq!(s["measured"]["server"]["pid"], std::process::id());

    let out = load(&["bots", "--addr", &addr, "--healthz-every", "1ms"]).await;
    assert_eq!(out.status.code(), Some(2), "refused before it began");
    assert!(String::from_utf8_lossy(&out.stderr).contains("at least 10ms"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_holds_every_connection_and_weighs_them() {
    let (addr, _dir) = server(|_| {}).await;
    let (addr, pid) = (addr.to_string(), std::process::id().to_string());
    let out = load(&[
        "idle",
        "--addr",
        &addr,
        "--connections",
        "20",
        "--hold",
        "200ms",
        "--pid",
        &pid,
        "--json",
    ])
    .await;
    let s = json(&out);
    assert!(out.status.success(), "{s:#}");
    assert_eq!(s["mode"], "idle");
    assert_eq!(s["requested"], 20);
    assert_eq!(s["greeted"], 20, "{s:#}");
    assert_eq!(s["failed"], 0);
    assert_eq!(s["dropped"], 0);
    assert!(
        s["server"]["after"]["rss_kb"].as_u64().unwrap() > 0,
        "{s:#}"
    );
    assert!(s["server"]["kb_per_connection"].is_number(), "{s:#}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_beyond_the_servers_maximum_are_reported_as_refused() {
    let (addr, _dir) = server(|c| c.max_connections = 10).await;
    let addr = addr.to_string();
    let out = load(&[
        "idle",
        "--addr",
        &addr,
        "--connections",
        "15",
        "--hold",
        "0s",
        "--json",
    ])
    .await;
    let s = json(&out);
    assert!(
        !out.status.success(),
        "a run short of connections fails: {s:#}"
    );
    assert_eq!(s["greeted"], 10, "{s:#}");
    assert_eq!(s["failed"], 5, "{s:#}");
    let reasons: Vec<&String> = s["failures"].as_object().unwrap().keys().collect();
    assert_eq!(
        reasons,
        [
            "upgrade refused with HTTP 503 (the server holds its --max-connections, or its --connections-per-address from this address)"
        ],
        "{s:#}"
    );
}

#[tokio::test]
async fn addresses_off_this_machine_are_refused_before_connecting() {
    for addr in ["192.0.2.1:8080", "0.0.0.0:8080"] {
        let out = load(&["play", "--addr", addr, "--rooms", "1", "--games", "1"]).await;
        assert_eq!(out.status.code(), Some(2), "{addr}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("not a loopback address"), "{addr}: {err}");
        let out = load(&["idle", "--addr", addr, "--connections", "1"]).await;
        assert_eq!(out.status.code(), Some(2), "{addr}");
        // One remote node in a list refuses the whole run.
        let list = format!("127.0.0.1:1,{addr}");
        let out = load(&["play", "--addr", &list, "--rooms", "1", "--games", "1"]).await;
        assert_eq!(out.status.code(), Some(2), "{list}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("not a loopback address"), "{list}: {err}");
    }
}
