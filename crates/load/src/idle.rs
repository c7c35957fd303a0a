//! `idle`: many greeted connections doing nothing, to weigh what one costs the server.
//!
//! The server's resident memory is read before the first connection opens and again
//! after every connection has been greeted and held for `--hold`; the difference over
//! the connections greeted is the memory per connection. Each held connection keeps
//! reading, so the WebSocket library answers the server's pings and the server's idle
//! timeout never closes it; one the server closes anyway is counted as dropped.

use crate::procfs::{self, Sample};
use crate::wire;
use futures_util::StreamExt;
use serde::Serialize;
use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;
use tokio::sync::{Semaphore, mpsc, watch};
use tokio::time::Instant;

#[derive(Clone, Debug)]
pub struct Plan {
    pub addr: SocketAddr,
    pub connections: usize,
    pub hold: Duration,
    pub pid: Option<u32>,
}

/// Handshakes in flight at once: enough to open 20,000 connections in seconds without
/// overflowing the server's accept backlog.
const CONNECT_CONCURRENCY: usize = 128;

#[derive(Debug, Serialize)]
pub struct Summary {
    pub mode: &'static str,
    pub target: String,
    pub requested: usize,
    pub greeted: usize,
    pub failed: usize,
    /// The distinct reasons connections failed, with how many failed so.
    pub failures: BTreeMap<String, usize>,
    /// Greeted connections the server closed during the hold.
    pub dropped: usize,
    /// Time to open and greet them all.
    pub connect_s: f64,
    pub hold_s: f64,
    pub server: Option<Memory>,
    pub client: Memory,
    pub load_average: Option<[f64; 3]>,
}

/// A process's memory before the connections and after the hold.
#[derive(Debug, Serialize)]
pub struct Memory {
    pub pid: Option<u32>,
    pub before: Sample,
    pub after: Sample,
    /// (after − before) resident memory over the connections greeted, in kB (1024 bytes).
    pub kb_per_connection: Option<f64>,
    /// CPU time spent during the hold alone (pings and timers of idle connections).
    pub hold_cpu_s: f64,
}

pub async fn run(plan: Plan) -> Result<Summary, String> {
    procfs::ensure_open_files(plan.connections as u64 + 64)?;
    let server_before = plan.pid.map(|pid| procfs::sample(Some(pid))).transpose()?;
    let client_before = procfs::sample(None)?;

    let started = Instant::now();
    let gate = Arc::new(Semaphore::new(CONNECT_CONCURRENCY));
    let dropped = Arc::new(AtomicUsize::new(0));
    let (release, released) = watch::channel(false);
    let (report, mut reports) = mpsc::channel::<Result<(), String>>(1024);
    let mut tasks = Vec::with_capacity(plan.connections);
    for _ in 0..plan.connections {
        let gate = gate.clone();
        let report = report.clone();
        let dropped = dropped.clone();
        let mut released = released.clone();
        let addr = plan.addr;
        tasks.push(tokio::spawn(async move {
            let opened = {
                let _permit = gate.acquire_owned().await;
                wire::open(addr, Duration::from_secs(30)).await
            };
            let mut ws = match opened {
                Ok((ws, _)) => {
                    let _ = report.send(Ok(())).await;
                    ws
                }
                Err(e) => {
                    let _ = report.send(Err(e.to_string())).await;
                    return;
                }
            };
            drop(report);
            let closed = loop {
                tokio::select! {
                    _ = released.wait_for(|r| *r) => break false,
                    item = ws.next() => match item {
                        Some(Ok(_)) => continue,
                        _ => break true,
                    },
                }
            };
            if closed {
                dropped.fetch_add(1, Ordering::Relaxed);
                drop(ws);
                // Wait for the end like the others, holding nothing.
                let _ = released.wait_for(|r| *r).await;
            }
        }));
    }
    drop(report);
    let mut greeted = 0;
    let mut failures = BTreeMap::new();
    while let Some(r) = reports.recv().await {
        match r {
            Ok(()) => greeted += 1,
            Err(reason) => *failures.entry(reason).or_insert(0) += 1,
        }
    }
    let connect_s = started.elapsed().as_secs_f64();

    let server_held = plan.pid.map(|pid| procfs::sample(Some(pid))).transpose()?;
    let client_held = procfs::sample(None)?;
    tokio::time::sleep(plan.hold).await;
    let server_after = plan.pid.map(|pid| procfs::sample(Some(pid))).transpose()?;
    let client_after = procfs::sample(None)?;
    let load_average = procfs::load_average();
    let _ = release.send(true);
    for task in tasks {
        let _ = task.await;
    }

    let memory = |pid, before: Sample, held: Sample, after: Sample| Memory {
        pid,
        kb_per_connection: (greeted > 0)
            .then(|| (after.rss_kb as f64 - before.rss_kb as f64) / greeted as f64),
        hold_cpu_s: after.cpu.saturating_sub(held.cpu).as_secs_f64(),
        before,
        after,
    };
    let failed = failures.values().sum();
    Ok(Summary {
        mode: "idle",
        target: plan.addr.to_string(),
        requested: plan.connections,
        greeted,
        failed,
        failures,
        dropped: dropped.load(Ordering::Relaxed),
        connect_s,
        hold_s: plan.hold.as_secs_f64(),
        server: match (server_before, server_held, server_after) {
            (Some(b), Some(h), Some(a)) => Some(memory(plan.pid, b, h, a)),
            _ => None,
        },
        client: memory(None, client_before, client_held, client_after),
        load_average,
    })
}
