//! `dominion-server` as a child process on a data directory: start it on a free port,
//! kill it (SIGKILL) or stop it (SIGTERM), start it again on the same directory. Plus the
//! bits the process tests share: a plain HTTP GET that reports the status, a connect
//! that fails softly (the server may die under it), the wire-to-engine reply mapping and
//! a look into the SQLite file.
#![allow(dead_code)]

use crate::common::Client;
use futures_util::SinkExt;
use serde_json::{Value, json};
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::Message;

/// The server binary Cargo built for these tests.
pub const BIN: &str = env!("CARGO_BIN_EXE_dominion-server");

/// The database file inside a data directory (as `dominion-store` names it).
pub const DB_FILE: &str = "dominion.sqlite3";

/// Longest wait for a started server to say where it listens.
const START_TIMEOUT: Duration = Duration::from_secs(30);

/// Lines of the server's output kept for failure messages.
const KEPT_LINES: usize = 400;

/// The server binary on any free port of 127.0.0.1, without colour, its output piped,
/// and only `env` of the `DOMINION_*` variables: the test's own environment must not
/// change the settings under test. Callers add the rest of the command line.
pub fn server_command(env: &[(&str, &str)]) -> Command {
    let mut cmd = Command::new(BIN);
    cmd.args(["--addr", "127.0.0.1:0"])
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (key, _) in std::env::vars_os() {
        if key.to_string_lossy().starts_with("DOMINION_") {
            cmd.env_remove(key);
        }
    }
    cmd.envs(env.iter().copied());
    cmd
}

/// A running `dominion-server`. Dropping it kills the process.
pub struct ServerProcess {
    child: Child,
    pub addr: SocketAddr,
    pub data_dir: PathBuf,
    output: Arc<Mutex<VecDeque<String>>>,
}

impl ServerProcess {
    /// Starts the server on `data_dir` with test settings (any free port on 127.0.0.1,
    /// bots at once, a message budget test clients never reach) and waits until it
    /// serves: rooms recovered from the store, `/healthz` answered.
    pub async fn start(data_dir: &Path) -> ServerProcess {
        ServerProcess::start_with(data_dir, &[]).await
    }

    /// As [`ServerProcess::start`], with more flags (later flags win).
    pub async fn start_with(data_dir: &Path, extra: &[&str]) -> ServerProcess {
        ServerProcess::start_with_env(data_dir, extra, &[]).await
    }

    /// As [`ServerProcess::start_with`], with environment variables for the server
    /// (set after the test's own `DOMINION_*` are cleared).
    pub async fn start_with_env(
        data_dir: &Path,
        extra: &[&str],
        env: &[(&str, &str)],
    ) -> ServerProcess {
        let server = ServerProcess::spawn_with_env(data_dir, extra, env).await;
        let started = Instant::now();
        loop {
            match try_http_get(server.addr, "/healthz").await {
                Ok((200, _)) => return server,
                _ if started.elapsed() > START_TIMEOUT => panic!(
                    "the server did not answer /healthz within {START_TIMEOUT:?}:\n{}",
                    server.output_tail(60)
                ),
                _ => tokio::time::sleep(Duration::from_millis(10)).await,
            }
        }
    }

    /// Starts the server and returns as soon as it says where it listens: it may still
    /// be opening the store and recovering rooms (connections wait in the backlog).
    pub async fn spawn(data_dir: &Path, extra: &[&str]) -> ServerProcess {
        ServerProcess::spawn_with_env(data_dir, extra, &[]).await
    }

    /// As [`ServerProcess::spawn`], with environment variables for the server.
    pub async fn spawn_with_env(
        data_dir: &Path,
        extra: &[&str],
        env: &[(&str, &str)],
    ) -> ServerProcess {
        let mut cmd = server_command(env);
        cmd.arg("--data-dir")
            .arg(data_dir)
            .args(["--bot-delay", "0"])
            .args(["--rate-messages", "100000", "--rate-window", "1s"])
            // Every test client is 127.0.0.1, as in `common::config`; the per-address
            // limits are tested in `budgets`.
            .args(if extra.contains(&"--live-rooms-per-address") {
                &[][..]
            } else {
                &["--live-rooms-per-address", "10000"][..]
            })
            .args(if extra.contains(&"--log") {
                &[][..]
            } else {
                &["--log", "info"][..]
            })
            .args(extra);
        let mut child = cmd
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {BIN}: {e}"));
        let output = Arc::new(Mutex::new(VecDeque::new()));
        let addr = Arc::new(Mutex::new(None));
        for pipe in [
            Box::new(child.stdout.take().expect("stdout")) as Box<dyn Read + Send>,
            Box::new(child.stderr.take().expect("stderr")),
        ] {
            let output = output.clone();
            let addr = addr.clone();
            std::thread::spawn(move || read_lines(pipe, &output, &addr));
        }
        let started = Instant::now();
        let found = loop {
            if let Some(a) = *addr.lock().unwrap() {
                break a;
            }
            if let Ok(Some(status)) = child.try_wait() {
                // Give the readers a moment to collect the last words.
                tokio::time::sleep(Duration::from_millis(100)).await;
                panic!(
                    "the server exited ({status}) before listening:\n{}",
                    tail(&output, 60)
                );
            }
            if started.elapsed() > START_TIMEOUT {
                let _ = child.kill();
                panic!(
                    "the server did not say where it listens within {START_TIMEOUT:?}:\n{}",
                    tail(&output, 60)
                );
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        };
        ServerProcess {
            child,
            addr: found,
            data_dir: data_dir.to_path_buf(),
            output,
        }
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// SIGKILL (what `Child::kill` sends on Unix), and reaps the process.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Sends SIGTERM, as `docker stop` or systemd would.
    pub fn terminate(&self) {
        let status = Command::new("kill")
            .arg("-TERM")
            .arg(self.pid().to_string())
            .status()
            .expect("run kill -TERM");
        assert!(status.success(), "kill -TERM {} failed", self.pid());
    }

    /// Sends `signal` (SIGSTOP and SIGCONT pause and wake the whole process, sockets
    /// and all: a stalled machine, as far as the others can tell).
    pub fn signal(&self, signal: i32) {
        // SAFETY: a plain syscall on our own child's pid.
        let r = unsafe { libc::kill(self.pid() as i32, signal) };
        assert_eq!(r, 0, "kill({}, {signal}) failed", self.pid());
    }

    /// Waits up to `limit` for the process to exit; its status, or `None` if it still runs.
    pub async fn wait_exit(&mut self, limit: Duration) -> Option<ExitStatus> {
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().expect("try_wait") {
                return Some(status);
            }
            if start.elapsed() >= limit {
                return None;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }

    /// The last `n` lines the server printed (for failure messages).
    pub fn output_tail(&self, n: usize) -> String {
        tail(&self.output, n)
    }

    /// `GET path` on this server.
    pub async fn get(&self, path: &str) -> (u16, String) {
        http_get(self.addr, path).await
    }

    /// `GET path`, which must answer 200 with JSON.
    pub async fn get_json(&self, path: &str) -> Value {
        let (status, body) = self.get(path).await;
        assert_eq!(status, 200, "GET {path}: {status} {body}");
        serde_json::from_str(&body).unwrap_or_else(|e| panic!("GET {path}: not JSON ({e}): {body}"))
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

fn read_lines(
    pipe: Box<dyn Read + Send>,
    output: &Mutex<VecDeque<String>>,
    addr: &Mutex<Option<SocketAddr>>,
) {
    let mut reader = BufReader::new(pipe);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match reader.read_until(b'\n', &mut buf) {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
        let line = strip_ansi(&String::from_utf8_lossy(&buf));
        let line = line.trim_end().to_string();
        if let Some(found) = listening_addr(&line) {
            addr.lock().unwrap().get_or_insert(found);
        }
        let mut out = output.lock().unwrap();
        if out.len() == KEPT_LINES {
            out.pop_front();
        }
        out.push_back(line);
    }
}

fn tail(output: &Mutex<VecDeque<String>>, n: usize) -> String {
    let out = output.lock().unwrap();
    let skip = out.len().saturating_sub(n);
    out.iter()
        .skip(skip)
        .cloned()
        .collect::<Vec<_>>()
        .join("\n")
}

/// The address in the server's `listening on http://ADDR` line.
pub fn listening_addr(line: &str) -> Option<SocketAddr> {
    let rest = &line[line.find("listening on http://")? + "listening on http://".len()..];
    let end = rest
        .find(|c: char| c.is_whitespace() || c == ')' || c == '/')
        .unwrap_or(rest.len());
    rest[..end].parse().ok()
}

fn strip_ansi(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            // ESC [ ... final byte in @..~
            for d in chars.by_ref() {
                if ('@'..='~').contains(&d) && d != '[' {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// A minimal HTTP/1.1 GET: the status and the body.
pub async fn http_get(addr: SocketAddr, path: &str) -> (u16, String) {
    try_http_get(addr, path)
        .await
        .unwrap_or_else(|e| panic!("GET {path}: {e}"))
}

/// As [`http_get`], with failures (the server went away) returned.
pub async fn try_http_get(addr: SocketAddr, path: &str) -> Result<(u16, String), String> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut s = tokio::net::TcpStream::connect(addr)
        .await
        .map_err(|e| format!("connect {addr}: {e}"))?;
    let req = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    s.write_all(req.as_bytes())
        .await
        .map_err(|e| format!("write: {e}"))?;
    let mut buf = Vec::new();
    tokio::time::timeout(Duration::from_secs(30), s.read_to_end(&mut buf))
        .await
        .map_err(|_| "no answer within 30 s".to_string())?
        .map_err(|e| format!("read: {e}"))?;
    parse_response(&buf)
}

/// An HTTP/1.1 response read to its end: its status and body (de-chunked).
pub fn parse_response(buf: &[u8]) -> Result<(u16, String), String> {
    let text = String::from_utf8_lossy(buf).to_string();
    let (head, body) = text
        .split_once("\r\n\r\n")
        .ok_or_else(|| format!("no header end in {text:?}"))?;
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| format!("no status in {head:?}"))?;
    let body = if head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        dechunk(body)
    } else {
        body.to_string()
    };
    Ok((status, body))
}

fn dechunk(mut body: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = body.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 || rest.len() < n {
            break;
        }
        out.push_str(&rest[..n]);
        body = rest[n..].strip_prefix("\r\n").unwrap_or(&rest[n..]);
    }
    out
}

/// Connects and completes the handshake, or says why not (the server may have died).
pub async fn try_connect(addr: SocketAddr, name: &str) -> Result<Client, String> {
    let (ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/ws"))
        .await
        .map_err(|e| format!("connect: {e}"))?;
    let mut c = Client::over(ws, name);
    try_send(
        &mut c,
        &json!({"type": "hello", "protocol": 1, "client": "process-test"}),
    )
    .await?;
    match c.recv_or_close().await {
        Ok(v) if v["type"] == "welcome" => Ok(c),
        Ok(v) => Err(format!("expected welcome, got {v}")),
        Err(closed) => Err(format!("closed during the handshake: {closed:?}")),
    }
}

/// Sends one frame; an error (the server went away) is returned, not a panic.
pub async fn try_send(c: &mut Client, v: &Value) -> Result<(), String> {
    c.ws.send(Message::text(v.to_string()))
        .await
        .map_err(|e| format!("send: {e}"))
}

/// A wire reply (`{"type": "buy", "card": "silver"}`) as the engine's
/// `dominion_engine::Reply` (`{"type": "buy", "value": "silver"}`).
pub fn engine_reply(wire: &Value) -> dominion_engine::Reply {
    let t = wire["type"].as_str().expect("reply type");
    let v = match t {
        "play" | "buy" | "name" | "pile" => json!({"type": t, "value": wire["card"]}),
        "cards" => json!({"type": t, "value": wire["cards"]}),
        "modes" => json!({"type": t, "value": wire["modes"]}),
        "yes_no" => json!({"type": t, "value": wire["yes"]}),
        _ => json!({"type": t}),
    };
    serde_json::from_value(v.clone()).unwrap_or_else(|e| panic!("{wire} as {v}: {e}"))
}

/// A game's record from `GET /api/games/{id}` (the published `GameRecord`, wire
/// format), ready for `Game::replay`.
pub fn record_from_history(body: &Value) -> dominion_engine::GameRecord {
    assert_eq!(body["format"], 1, "record format: {body}");
    let replies = body["replies"]
        .as_array()
        .unwrap_or_else(|| panic!("no replies array in {body}"))
        .iter()
        .map(|r| {
            let seat = r["seat"]
                .as_u64()
                .unwrap_or_else(|| panic!("reply without seat: {r}"));
            assert!(r["decision"].is_u64(), "reply without decision: {r}");
            (
                dominion_engine::PlayerId(seat as u8),
                engine_reply(&r["reply"]),
            )
        })
        .collect();
    dominion_engine::GameRecord {
        setup: engine_setup(&body["setup"]),
        seed: body["seed"]
            .as_str()
            .unwrap_or_else(|| panic!("seed is not a string: {}", body["seed"]))
            .parse()
            .expect("seed is a decimal u64"),
        replies,
        rules: body["rules_version"]
            .as_u64()
            .unwrap_or_else(|| panic!("no rules_version in {body}")) as u32,
    }
}

/// A wire `GameSetup` (kingdom as drawn) as the engine's.
pub fn engine_setup(setup: &Value) -> dominion_engine::Setup {
    assert_eq!(setup["kingdom"]["type"], "cards", "{setup}");
    let kingdom = setup["kingdom"]["cards"]
        .as_array()
        .unwrap_or_else(|| panic!("no kingdom cards in {setup}"))
        .iter()
        .map(|c| c.as_str().unwrap().parse().unwrap())
        .collect();
    dominion_engine::Setup {
        players: setup["players"].as_u64().unwrap() as u8,
        kingdom: dominion_engine::Kingdom::Cards(kingdom),
        edition: serde_json::from_value(setup["edition"].clone()).unwrap(),
    }
}

/// A setup as the store keeps it (record format 2: the wire `GameSetup`).
pub fn stored_setup(text: &str) -> dominion_engine::Setup {
    engine_setup(&serde_json::from_str(text).expect("stored setup JSON"))
}

/// A reply as the store keeps it (record format 2: the wire reply a client sends).
pub fn stored_reply(text: &str) -> dominion_engine::Reply {
    engine_reply(&serde_json::from_str(text).expect("stored reply JSON"))
}

/// Replays the record served by `GET /api/games/{id}` through the engine.
pub fn replay_history(body: &Value) -> Result<dominion_engine::Game, String> {
    dominion_engine::Game::replay(&record_from_history(body)).map_err(|e| e.to_string())
}

/// Engine scores as the wire writes them: `{seat, vp, turns, winner}`.
pub fn wire_scores(scores: &[dominion_engine::Score]) -> Value {
    Value::Array(
        scores
            .iter()
            .map(|s| json!({"seat": s.player.0, "vp": s.vp, "turns": s.turns, "winner": s.winner}))
            .collect(),
    )
}

/// Only the four score fields of each entry (a body may carry more).
pub fn score_fields(scores: &Value) -> Value {
    Value::Array(
        scores
            .as_array()
            .unwrap_or_else(|| panic!("scores is not an array: {scores}"))
            .iter()
            .map(|s| json!({"seat": s["seat"], "vp": s["vp"], "turns": s["turns"], "winner": s["winner"]}))
            .collect(),
    )
}

/// One game as stored in the SQLite file, read directly (not through the server).
#[derive(Debug)]
pub struct StoredGame {
    pub setup: String,
    pub seed: String,
    /// (player, reply JSON, state hash after it), in order.
    pub replies: Vec<(u8, String, String)>,
    pub last_hash: String,
    pub finished: bool,
}

pub fn db_path(data_dir: &Path) -> PathBuf {
    data_dir.join(DB_FILE)
}

/// `PRAGMA integrity_check` on the file (the server must not be running).
pub fn integrity_check(db: &Path) -> String {
    let conn = rusqlite::Connection::open(db).expect("open the database");
    conn.query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .expect("integrity_check")
}

/// A game's state digest as schema 11 keeps it (docs/storage.md): its newest reply's, or
/// the game row's (`row`) before any — the row is no longer updated per reply.
fn newest_hash(row: String, replies: &[(u8, String, String)]) -> String {
    replies.last().map_or(row, |(_, _, hash)| hash.clone())
}

/// A room's game as stored, read with plain SQL.
pub fn stored_game(db: &Path, room: &str) -> Option<StoredGame> {
    use rusqlite::OptionalExtension;
    let conn = rusqlite::Connection::open(db).expect("open the database");
    let game = conn
        .query_row(
            "SELECT setup, seed, last_hash, finished_at FROM games WHERE room_id = ?1",
            [room],
            |r| {
                Ok(StoredGame {
                    setup: r.get(0)?,
                    seed: r.get(1)?,
                    replies: Vec::new(),
                    last_hash: r.get(2)?,
                    finished: r.get::<_, Option<i64>>(3)?.is_some(),
                })
            },
        )
        .optional()
        .expect("read games")?;
    let mut stmt = conn
        .prepare("SELECT player, reply, state_hash FROM replies WHERE room_id = ?1 ORDER BY seq")
        .expect("prepare");
    let replies = stmt
        .query_map([room], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .expect("read replies")
        .collect::<Result<Vec<_>, _>>()
        .expect("read replies");
    Some(StoredGame {
        last_hash: newest_hash(game.last_hash, &replies),
        replies,
        ..game
    })
}

/// Which store a test's servers use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// SQLite in the data directory: the default.
    Sqlite,
    /// A fresh database of the test binary's PostgreSQL (`dominion-testkit`), given with
    /// `--database`.
    Postgres,
}

/// Runs async tests, `async fn NAME(backend: Backend)`, once per backend, as
/// `MODULE::sqlite::NAME` and `MODULE::postgres::NAME`. One invocation per module.
macro_rules! on_both_backends {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    super::$name(crate::process::Backend::Sqlite).await
                }
            )*
        }
        mod postgres {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                #[cfg_attr(not(have_postgres), ignore = "needs PostgreSQL — run scripts/setup-test-deps.sh")]
                async fn $name() {
                    super::$name(crate::process::Backend::Postgres).await
                }
            )*
        }
    };
}
pub(crate) use on_both_backends;

/// A test's store: its data directory and, with PostgreSQL, its database; the flags that
/// point a server at it; and reads past the server, straight from the database.
pub struct TestStore {
    dir: tempfile::TempDir,
    url: Option<String>,
}

impl TestStore {
    pub fn new(backend: Backend) -> TestStore {
        TestStore {
            dir: tempfile::tempdir().expect("tempdir"),
            url: (backend == Backend::Postgres)
                .then(|| dominion_testkit::TempPostgres::shared().fresh_database()),
        }
    }

    pub fn backend(&self) -> Backend {
        if self.url.is_some() {
            Backend::Postgres
        } else {
            Backend::Sqlite
        }
    }

    /// The data directory (a PostgreSQL server is given one too; it writes nothing there).
    pub fn dir(&self) -> &Path {
        self.dir.path()
    }

    /// The store as `dominion-store` names it (for a `DurableLog` opened by the test).
    pub fn database(&self) -> dominion_store::Database {
        match &self.url {
            Some(url) => dominion_store::Database::Postgres { url: url.clone() },
            None => dominion_store::Database::Sqlite {
                dir: self.dir().to_path_buf(),
                durability: dominion_store::Durability::Full,
            },
        }
    }

    /// The PostgreSQL URL, if this store is one.
    pub fn url(&self) -> Option<&str> {
        self.url.as_deref()
    }

    /// `--database URL` for PostgreSQL, nothing for SQLite.
    pub fn args(&self) -> Vec<&str> {
        match &self.url {
            Some(url) => vec!["--database", url],
            None => Vec::new(),
        }
    }

    /// Starts a server on this store (see [`ServerProcess::start_with`]).
    pub async fn start(&self, extra: &[&str]) -> ServerProcess {
        let args = [self.args().as_slice(), extra].concat();
        ServerProcess::start_with(self.dir(), &args).await
    }

    /// Spawns a server on this store (see [`ServerProcess::spawn`]).
    pub async fn spawn(&self, extra: &[&str]) -> ServerProcess {
        let args = [self.args().as_slice(), extra].concat();
        ServerProcess::spawn(self.dir(), &args).await
    }

    /// SQLite's `integrity_check`; for PostgreSQL, every table answers (the server must
    /// not be running for SQLite).
    pub fn integrity_check(&self) -> String {
        match &self.url {
            None => integrity_check(&db_path(self.dir())),
            Some(url) => on_pg(url, |c| {
                c.batch_execute(
                    "SELECT 1 FROM rooms; SELECT 1 FROM seats; SELECT 1 FROM games; \
                     SELECT 1 FROM replies;",
                )
                .map(|()| "ok".to_string())
            }),
        }
    }

    /// A room's game as stored, read with plain SQL.
    pub fn stored_game(&self, room: &str) -> Option<StoredGame> {
        let Some(url) = &self.url else {
            return stored_game(&db_path(self.dir()), room);
        };
        let room = room.to_string();
        on_pg(url, move |c| {
            let Some(r) = c.query_opt(
                "SELECT setup, seed, last_hash, finished_at FROM games WHERE room_id = $1",
                &[&room],
            )?
            else {
                return Ok(None);
            };
            let replies = c
                .query(
                    "SELECT player, reply, state_hash FROM replies WHERE room_id = $1 \
                     ORDER BY seq",
                    &[&room],
                )?
                .iter()
                .map(|r| (r.get::<_, i64>(0) as u8, r.get(1), r.get(2)))
                .collect::<Vec<_>>();
            Ok(Some(StoredGame {
                setup: r.get(0),
                seed: r.get(1),
                last_hash: newest_hash(r.get(2), &replies),
                replies,
                finished: r.get::<_, Option<i64>>(3).is_some(),
            }))
        })
    }

    /// A room's status and broken reason, read with plain SQL.
    pub fn room_status(&self, room: &str) -> (String, Option<String>) {
        const SQL: &str = "SELECT status, broken_reason FROM rooms WHERE id = ";
        match &self.url {
            None => rusqlite::Connection::open(db_path(self.dir()))
                .unwrap()
                .query_row(&format!("{SQL}?1"), [room], |r| Ok((r.get(0)?, r.get(1)?)))
                .unwrap(),
            Some(url) => {
                let room = room.to_string();
                on_pg(url, move |c| {
                    let r = c.query_one(&format!("{SQL}$1"), &[&room])?;
                    Ok((r.get(0), r.get(1)))
                })
            }
        }
    }

    /// The last command id stored for a seat, as the store reads it back (schema 11: the
    /// larger of the seat's row and its replies', docs/storage.md), on a thread of its
    /// own (PostgreSQL's blocking client must not run on the test's runtime).
    pub fn last_command(&self, room: &str, seat: i64) -> u64 {
        std::thread::scope(|s| {
            s.spawn(|| {
                let reader = match &self.url {
                    None => dominion_store::Reader::open(self.dir()),
                    Some(url) => dominion_store::Reader::connect(url),
                }
                .expect("open a reader");
                let (_, seats) = reader.view().room(room).expect("read").expect("the room");
                seats[seat as usize].last_command
            })
            .join()
            .expect("the reading thread panicked")
        })
    }

    /// Overwrites the last stored reply of `room` (a log the engine will refuse).
    pub fn replace_last_reply(&self, room: &str, reply: &str) {
        const SQL: &str = "UPDATE replies SET reply = {reply} WHERE room_id = {room} \
                           AND seq = (SELECT MAX(seq) FROM replies WHERE room_id = {room})";
        let n = match &self.url {
            None => rusqlite::Connection::open(db_path(self.dir()))
                .unwrap()
                .execute(
                    &SQL.replace("{reply}", "?2").replace("{room}", "?1"),
                    rusqlite::params![room, reply],
                )
                .unwrap() as u64,
            Some(url) => {
                let (room, reply) = (room.to_string(), reply.to_string());
                on_pg(url, move |c| {
                    c.execute(
                        &SQL.replace("{reply}", "$2").replace("{room}", "$1"),
                        &[&room, &reply],
                    )
                })
            }
        };
        assert_eq!(n, 1, "one reply replaced in {room}");
    }
}

/// Runs `f` with a PostgreSQL connection to `url`, on a thread of its own: the blocking
/// client panics on an async runtime's threads, where the tests run.
pub fn on_pg<T: Send>(
    url: &str,
    f: impl FnOnce(&mut postgres::Client) -> Result<T, postgres::Error> + Send,
) -> T {
    std::thread::scope(|s| {
        s.spawn(|| {
            let mut c = postgres::Client::connect(url, postgres::NoTls)
                .unwrap_or_else(|e| panic!("connect to {url}: {e}"));
            f(&mut c).unwrap_or_else(|e| panic!("on {url}: {e:?}"))
        })
        .join()
        .expect("the PostgreSQL thread panicked")
    })
}

/// A stored state digest: `d1:` and 16 hex digits (docs/storage.md).
pub fn parse_digest(text: &str) -> u64 {
    let hex = text
        .strip_prefix("d1:")
        .unwrap_or_else(|| panic!("{text:?} is not a stored state digest (d1:…)"));
    assert_eq!(hex.len(), 16, "{text:?}");
    u64::from_str_radix(hex, 16).unwrap_or_else(|e| panic!("{text:?}: {e}"))
}

/// A stored state hash of the first release: 16 hex digits (or, failing that, decimal).
pub fn parse_hash(text: &str) -> u64 {
    if text.len() == 16
        && let Ok(h) = u64::from_str_radix(text, 16)
    {
        return h;
    }
    text.parse()
        .unwrap_or_else(|_| panic!("unreadable state hash {text:?}"))
}

/// A small seeded generator (SplitMix64): the kill moments are reproducible from the
/// seed the test prints.
pub struct SplitMix(u64);

impl SplitMix {
    pub fn new(seed: u64) -> SplitMix {
        SplitMix(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `lo..=hi`.
    pub fn between(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.next_u64() % (hi - lo + 1)
    }
}

#[test]
fn the_listening_line_gives_the_address() {
    let line = "2026-01-01T00:00:00Z  INFO dominion_server: listening on http://127.0.0.1:40123 (WebSocket at ws://127.0.0.1:40123/ws)";
    assert_eq!(
        listening_addr(line),
        Some("127.0.0.1:40123".parse().unwrap())
    );
    assert_eq!(
        strip_ansi("\u{1b}[32m INFO\u{1b}[0m listening"),
        " INFO listening"
    );
    assert_eq!(listening_addr("nothing here"), None);
}
