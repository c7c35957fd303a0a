//! `automatch`: many signed-in clients ask for a match at once; each accepts what it is
//! proposed and waits for `match_found`. Prints matches per second and the time from
//! `find_match` to `match_found` (p50, p99), everyone's opponent being in the queue.
//!
//! The accounts are made first, through `POST /api/accounts` (or signed in with `POST
//! /api/session` when a previous run made them), `--register-concurrency` at a time;
//! then every client opens its WebSocket with the session cookie and says hello; then,
//! all greeted, every client sends `find_match` at once. Loopback only, bounded by
//! `--clients` (at most 20,000) and `--timeout`. With several servers (a cluster's
//! nodes), client i signs up and plays at server i modulo their number.

use crate::stats::{self, Latency};
use crate::wire::{self, Frame, Ws};
use dominion_protocol::{ClientMessage, MatchPool, PROTOCOL_VERSION};
use futures_util::StreamExt;
use serde::Serialize;
use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::sync::{Semaphore, watch};
use tokio::time::Instant;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;

#[derive(Clone, Debug)]
pub struct Plan {
    /// The servers; client i uses `addrs[i % addrs.len()]`.
    pub addrs: Vec<SocketAddr>,
    pub clients: usize,
    pub pool: MatchPool,
    /// Account names are `{prefix}{i}`.
    pub prefix: String,
    pub register_concurrency: usize,
    pub timeout: Duration,
}

#[derive(Debug, Serialize)]
pub struct Summary {
    pub mode: &'static str,
    pub target: String,
    pub pool: &'static str,
    pub clients: usize,
    /// Accounts made or signed in, and the time it took.
    pub signed_in: usize,
    pub sign_in_s: f64,
    pub greeted: usize,
    /// Clients that got `match_found`.
    pub matched: usize,
    /// Rooms made (distinct rooms in the clients' `match_found`).
    pub matches: usize,
    /// From the first `find_match` to the last `match_found`.
    pub match_s: f64,
    pub matches_per_s: f64,
    /// `find_match` → `match_found`, per client.
    pub find_to_found: Latency,
    /// Proposals a client saw fall through (`requeued`) before its match.
    pub requeued: usize,
    pub failures: BTreeMap<String, usize>,
}

const PASSWORD: &str = "load-test password";

/// One HTTP/1.1 request with the server's own Origin; the status and the session
/// cookie, if one was set.
async fn post(addr: SocketAddr, path: &str, body: &str) -> Result<(u16, Option<String>), String> {
    let mut s = tokio::net::TcpStream::connect(addr)
        .await
        .map_err(|e| format!("connect: {e}"))?;
    let req = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nOrigin: http://{addr}\r\nConnection: close\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes())
        .await
        .map_err(|e| format!("write: {e}"))?;
    let mut buf = Vec::new();
    tokio::time::timeout(Duration::from_secs(60), s.read_to_end(&mut buf))
        .await
        .map_err(|_| "no HTTP answer within 60 s".to_string())?
        .map_err(|e| format!("read: {e}"))?;
    let text = String::from_utf8_lossy(&buf);
    let status = text
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or("not an HTTP answer")?;
    let cookie = text
        .lines()
        .take_while(|l| !l.is_empty())
        .filter_map(|l| l.split_once(':'))
        .find(|(k, _)| k.eq_ignore_ascii_case("set-cookie"))
        .and_then(|(_, v)| v.trim().split(';').next())
        .and_then(|c| c.strip_prefix("dominion_session="))
        .map(String::from);
    Ok((status, cookie))
}

/// Registers `name`, or signs it in when it exists: its session cookie.
async fn account(addr: SocketAddr, name: &str) -> Result<String, String> {
    let body = serde_json::json!({"name": name, "password": PASSWORD}).to_string();
    let (status, cookie) = post(addr, "/api/accounts", &body).await?;
    let (status, cookie) = if status == 409 {
        post(addr, "/api/session", &body).await?
    } else {
        (status, cookie)
    };
    match (status, cookie) {
        (200 | 201, Some(cookie)) => Ok(cookie),
        (429, _) => {
            Err("HTTP 429: start the server with a larger --registrations-per-address".to_string())
        }
        (status, _) => Err(format!("account {name}: HTTP {status}")),
    }
}

/// Opens the WebSocket with the session cookie and says hello.
async fn connect(addr: SocketAddr, cookie: &str) -> Result<Ws, String> {
    let tcp = wire::tcp_from(addr, None)
        .await
        .map_err(|e| format!("connect: {e}"))?;
    let _ = tcp.set_nodelay(true);
    let mut req = format!("ws://{addr}/ws")
        .into_client_request()
        .map_err(|e| e.to_string())?;
    let h = req.headers_mut();
    h.insert(
        "Origin",
        HeaderValue::from_str(&format!("http://{addr}")).map_err(|e| e.to_string())?,
    );
    h.insert(
        "Cookie",
        HeaderValue::from_str(&format!("dominion_session={cookie}")).map_err(|e| e.to_string())?,
    );
    let (mut ws, _) = tokio_tungstenite::client_async(req, tcp)
        .await
        .map_err(|e| format!("upgrade: {e}"))?;
    wire::send(
        &mut ws,
        &ClientMessage::Hello {
            protocol: PROTOCOL_VERSION,
            client: Some(format!("dominion-load/{}", env!("CARGO_PKG_VERSION"))),
            token: None,
        },
    )
    .await
    .map_err(|e| e.to_string())?;
    loop {
        match wire::classify(ws.next().await).map_err(|e| e.to_string())? {
            Frame::Welcome(_) => return Ok(ws),
            Frame::Error { message, .. } => return Err(message),
            _ => continue,
        }
    }
}

/// One client's result: time to `match_found`, requeues seen, the room.
type Outcome = Result<(Duration, usize, String), String>;

async fn client(
    mut ws: Ws,
    pool: MatchPool,
    mut go: watch::Receiver<Option<Instant>>,
    mut done: watch::Receiver<bool>,
    timeout: Duration,
    report: tokio::sync::mpsc::Sender<Outcome>,
) {
    let Ok(start) = go
        .wait_for(|g| g.is_some())
        .await
        .map(|g| g.unwrap_or_else(Instant::now))
    else {
        let _ = report.send(Err("the run ended".into())).await;
        return;
    };
    let outcome = find(&mut ws, pool, start, timeout).await;
    let _ = report.send(outcome).await;
    // Hold the connection until everyone is done: a closed one would leave the queue.
    let _ = done.wait_for(|d| *d).await;
}

async fn find(ws: &mut Ws, pool: MatchPool, start: Instant, timeout: Duration) -> Outcome {
    let mut id = 1;
    wire::send(
        ws,
        &ClientMessage::FindMatch {
            id,
            pool,
            edition: None,
            sets: None,
        },
    )
    .await
    .map_err(|e| e.to_string())?;
    let mut requeued = 0;
    let deadline = start + timeout;
    loop {
        let item = match tokio::time::timeout_at(deadline, ws.next()).await {
            Ok(item) => item,
            Err(_) => break Err("no match_found before --timeout".to_string()),
        };
        match wire::classify(item) {
            Ok(Frame::MatchProposed { match_id }) => {
                id += 1;
                let accept = ClientMessage::AcceptMatch { id, match_id };
                if let Err(e) = wire::send(ws, &accept).await {
                    break Err(e.to_string());
                }
            }
            Ok(Frame::MatchFound { room }) => break Ok((start.elapsed(), requeued, room)),
            Ok(Frame::MatchCancelled(dominion_protocol::MatchCancelReason::Requeued)) => {
                requeued += 1
            }
            Ok(Frame::MatchCancelled(reason)) => break Err(format!("match_cancelled {reason:?}")),
            Ok(Frame::Error { code, .. }) => break Err(format!("error {code:?}")),
            Ok(_) => {}
            Err(e) => break Err(e.to_string()),
        }
    }
}

pub async fn run(plan: Plan) -> Result<Summary, String> {
    crate::procfs::ensure_open_files(plan.clients as u64 * 2 + 64)?;
    // Accounts.
    let started = Instant::now();
    let gate = Arc::new(Semaphore::new(plan.register_concurrency.max(1)));
    let mut tasks = Vec::with_capacity(plan.clients);
    for i in 0..plan.clients {
        let gate = gate.clone();
        let name = format!("{}{i}", plan.prefix);
        let addr = plan.addrs[i % plan.addrs.len()];
        tasks.push(tokio::spawn(async move {
            let _permit = gate.acquire_owned().await;
            account(addr, &name).await
        }));
    }
    let mut failures: BTreeMap<String, usize> = BTreeMap::new();
    let mut cookies = Vec::new();
    for (i, t) in tasks.into_iter().enumerate() {
        match t.await.map_err(|e| e.to_string()).and_then(|r| r) {
            Ok(cookie) => cookies.push((plan.addrs[i % plan.addrs.len()], cookie)),
            Err(e) => *failures.entry(e).or_insert(0) += 1,
        }
    }
    let signed_in = cookies.len();
    let sign_in_s = started.elapsed().as_secs_f64();
    // Connections.
    let gate = Arc::new(Semaphore::new(128));
    let mut tasks = Vec::with_capacity(signed_in);
    for (addr, cookie) in cookies {
        let gate = gate.clone();
        tasks.push(tokio::spawn(async move {
            let _permit = gate.acquire_owned().await;
            connect(addr, &cookie).await
        }));
    }
    let mut sockets = Vec::new();
    for t in tasks {
        match t.await.map_err(|e| e.to_string()).and_then(|r| r) {
            Ok(ws) => sockets.push(ws),
            Err(e) => *failures.entry(e).or_insert(0) += 1,
        }
    }
    let greeted = sockets.len();
    // Everyone asks at once.
    let (go_tx, go) = watch::channel(None);
    let (done_tx, done) = watch::channel(false);
    let (report, mut reports) = tokio::sync::mpsc::channel::<Outcome>(greeted.max(1));
    let mut clients = Vec::with_capacity(greeted);
    for ws in sockets {
        clients.push(tokio::spawn(client(
            ws,
            plan.pool,
            go.clone(),
            done.clone(),
            plan.timeout,
            report.clone(),
        )));
    }
    drop(report);
    let _ = go_tx.send(Some(Instant::now()));
    let mut samples = Vec::new();
    let mut requeued = 0;
    let mut last = Duration::ZERO;
    let mut rooms = std::collections::BTreeSet::new();
    for _ in 0..greeted {
        match reports.recv().await {
            Some(Ok((took, r, room))) => {
                rooms.insert(room);
                last = last.max(took);
                samples.push(stats::micros(took));
                requeued += r;
            }
            Some(Err(e)) => *failures.entry(e).or_insert(0) += 1,
            None => break,
        }
    }
    let _ = done_tx.send(true);
    for c in clients {
        let _ = c.await;
    }
    let matched = samples.len();
    let matches = rooms.len();
    let match_s = last.as_secs_f64();
    Ok(Summary {
        mode: "automatch",
        target: plan
            .addrs
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(","),
        pool: plan.pool.as_str(),
        clients: plan.clients,
        signed_in,
        sign_in_s,
        greeted,
        matched,
        matches,
        match_s,
        matches_per_s: if match_s > 0.0 {
            matches as f64 / match_s
        } else {
            0.0
        },
        find_to_found: Latency::of(&mut samples),
        requeued,
        failures,
    })
}
