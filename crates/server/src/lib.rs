//! The authoritative Dominion server: rooms over WebSocket, speaking the protocol of
//! `dominion-protocol` (guide: docs/protocol.md).
//!
//! Library first, so tests start a real server on port 0 in-process:
//!
//! ```no_run
//! # async fn demo() -> std::io::Result<()> {
//! let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
//! let config = dominion_server::Config::default();
//! dominion_server::serve(config, listener, std::future::pending()).await
//! # }
//! ```
//!
//! Four layers along a reply's path — [`net`], [`rooms`], [`gamelog`], with [`convert`]
//! beneath them all — and [`cluster`] plugged into `rooms::placement` from the side;
//! [`accounts`] (players' accounts, sessions, tokens, profiles) sits beside the rooms,
//! under `net`, which serves it over HTTP and signs WebSockets in with it;
//! `layers_tests` checks who may name whom. A reply's path: `net::connection` reads a
//! frame and checks budget, size, shape, handshake and command id; the command goes, as
//! a `RoomMsg`, to its room's channel (found through the hub, or forwarded to the node
//! that runs it); the room task (`rooms::room`) converts it with `convert::from_wire`,
//! checks it against the game and has the engine apply it; its [`gamelog::RoomLog`]
//! records it and the room awaits the commit; `rooms::projection` then makes each
//! viewer's frames, which the viewer's outbox (`rooms::outbox`) queues without waiting
//! and its connection's writer sends.
//!
//! **Start.** [`serve`] opens the store off the async workers, reopens every room it
//! holds (replaying each game: `gamelog::durable`), and only then logs `listening on`,
//! so that line means ready. In a cluster no room is reopened at start: the sweep takes
//! rooms over once their leases are known to be free.
//!
//! **Shutdown.** When `shutdown` completes (the binary: SIGTERM or Ctrl-C), a cluster
//! node first hands its rooms over (`cluster::Cluster::drain`); then the hub's shutdown
//! flag flips: no new rooms, every WebSocket closed with 1012. The accept loop
//! (`net::accept`) lets plain HTTP requests finish, and `serve` also waits, up to
//! `--shutdown-grace`, for the upgraded WebSockets, so every client receives its close
//! frame; the binary exits at most a second after the grace. A room acknowledges a
//! reply only once its commit is answered, so whenever the process stops a reply is
//! either committed or was never acknowledged.

pub mod accounts;
pub mod analysis;
pub mod budget;
pub mod cluster;
pub mod config;
pub mod convert;
pub mod gamelog;
pub mod matchmaking;
pub mod metrics;
pub mod net;
pub mod presence;
pub mod random;
pub mod rooms;
pub mod token;

#[cfg(test)]
mod layers_tests;

pub use config::Config;

use std::future::Future;
use std::sync::Arc;
use tokio::net::TcpListener;

/// Serves until `shutdown` completes; then every WebSocket is closed with 1012.
pub async fn serve(
    config: Config,
    listener: TcpListener,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let database = config
        .store_database()
        .map_err(|e| std::io::Error::other(format!("--database: {e}")))?;
    // SQLite keeps everything in the data directory; with PostgreSQL nothing is written
    // there, so none is created.
    if !database.is_postgres() {
        std::fs::create_dir_all(&config.data_dir).map_err(|e| {
            std::io::Error::new(
                e.kind(),
                format!("cannot create data dir {}: {e}", config.data_dir.display()),
            )
        })?;
    }
    // Bound before anything else is opened, so a wrong address fails the start at once.
    let metrics_listener = match config.metrics_addr.as_deref().filter(|a| !a.is_empty()) {
        Some(addr) => Some(TcpListener::bind(addr).await.map_err(|e| {
            std::io::Error::new(
                e.kind(),
                format!("cannot listen on --metrics-addr {addr}: {e}"),
            )
        })?),
        None => None,
    };
    let metrics = Arc::new(metrics::Metrics::new());
    // Opening connects (PostgreSQL's blocking client) and migrates: off the async workers.
    let log = {
        let (database, metrics, writers) =
            (database.clone(), metrics.clone(), config.store_writers);
        tokio::task::spawn_blocking(move || {
            gamelog::durable::DurableLog::open_with_writers(&database, metrics, writers)
        })
        .await
        .map_err(|e| std::io::Error::other(format!("opening the store failed: {e}")))?
    }
    .map(Arc::new)
    .map_err(|e| {
        // A directory it cannot write gets the whole story (owner, mode, the fix).
        let explained = match &e {
            gamelog::durable::OpenError::Store(s) => gamelog::datadir::explain(s, &config.data_dir),
            gamelog::durable::OpenError::Thread(..) => None,
        };
        std::io::Error::other(
            explained
                .unwrap_or_else(|| format!("cannot open the store {}: {e}", database.describe())),
        )
    })?;
    // Accounts: a connection of their own beside the games' writer, opened once the
    // store has brought the schema up to date; the dummy hash is made here too.
    let accounts = {
        let (config, database) = (Arc::new(config.clone()), database.clone());
        tokio::task::spawn_blocking(move || accounts::Accounts::open(config, &database))
            .await
            .map_err(|e| std::io::Error::other(format!("opening the accounts failed: {e}")))?
            .map_err(|e| std::io::Error::other(format!("cannot open the accounts: {e}")))?
    };
    // Every node checks its signed-in connections against the store every few seconds:
    // a ban, a deletion or an ended session made on any node closes them here too.
    {
        let accounts = Arc::downgrade(&accounts);
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(crate::accounts::SWEEP_EVERY);
            loop {
                tick.tick().await;
                let Some(accounts) = accounts.upgrade() else {
                    return;
                };
                accounts.sweep().await;
            }
        });
    }
    // In a cluster no room is reopened at start: the rooms in the store belong to other
    // nodes, or are taken over by the sweep once their leases are known to be free.
    let (requests, served) = rooms::placement::requests();
    let cluster = match config.cluster.as_deref().filter(|u| !u.is_empty()) {
        None => None,
        Some(_) => {
            if !database.is_postgres() {
                return Err(std::io::Error::other(
                    cluster::ClusterError::NeedsPostgres.to_string(),
                ));
            }
            let listening = listener.local_addr()?;
            let ledger: Arc<dyn cluster::Ledger> = log.clone();
            Some(
                cluster::Cluster::join(
                    &config,
                    listening,
                    ledger,
                    log.fences().clone(),
                    requests,
                    (
                        log.legacy_columns().clone(),
                        metrics.store_legacy_columns.clone(),
                    ),
                )
                .await
                .map_err(|e| std::io::Error::other(e.to_string()))?,
            )
        }
    };
    let (recovered, broken) = if cluster.is_some() {
        (Vec::new(), Vec::new())
    } else {
        log.recover(config.finished_room_ttl)
            .await
            .map_err(|e| std::io::Error::other(format!("cannot read the store: {e}")))?
    };
    // The hub sees the cluster only through the interface it owns (`rooms::placement`).
    let placement = cluster
        .clone()
        .map(|c| (c as Arc<dyn rooms::placement::Placement>, served));
    let hub = rooms::hub::Hub::new(
        Arc::new(config),
        log.clone(),
        metrics,
        Some(log.clone()),
        placement,
    );
    if let Some(cluster) = &cluster {
        // Sign-in and registration limits hold across the cluster, not once per node.
        accounts.share_windows(cluster.shared_windows());
        // Friends online and invitations across the nodes.
        let (listed, delivering) = (accounts.live.clone(), accounts.live.clone());
        accounts.share_presence(cluster.presence(presence::Local {
            accounts: Box::new(move || listed.direct_accounts()),
            deliver: Box::new(move |account, frame| {
                match serde_json::from_str::<dominion_protocol::ServerMessage>(frame) {
                    Ok(msg) => delivering.notify_direct(account, &msg),
                    Err(_) => 0,
                }
            }),
        }));
        cluster.start();
    }
    for b in &broken {
        hub.note_broken(&b.id, &b.reason);
    }
    let reopened = recovered.len();
    for room in recovered {
        let id = room.id.clone();
        if let Err(reason) = hub.restore_room(room) {
            tracing::error!(room = %id, %reason, "room cannot be reopened; marked broken");
            let _ = log.mark_broken(&id, &reason).await;
            hub.note_broken(&id, &reason);
        }
    }
    if reopened > 0 || !broken.is_empty() {
        tracing::info!(
            reopened,
            broken = broken.len(),
            "rooms recovered from the store"
        );
    }
    if !hub.config.trusted_proxies.is_empty() {
        let proxies: Vec<String> = hub
            .config
            .trusted_proxies
            .nets()
            .iter()
            .map(ToString::to_string)
            .collect();
        tracing::info!(
            "believing X-Forwarded-For from {} (--trusted-proxies)",
            proxies.join(", ")
        );
    }
    // Ready only now: the store is open and every room reopened.
    match listener.local_addr() {
        Ok(addr) => tracing::info!("listening on http://{addr} (WebSocket at ws://{addr}/ws)"),
        Err(e) => tracing::warn!("listening, address unknown: {e}"),
    }
    let grace = hub.config.shutdown_grace;
    // In a cluster, one automatch queue for every node.
    let shared_queue = cluster.as_ref().map(|c| c.shared_queue());
    // Game reviews: their own threads and store connection (opening connects: off the
    // async workers); unfinished reviews are queued again.
    let reviews = {
        let (config, database, history) = (hub.config.clone(), database.clone(), Some(log.clone()));
        let node = cluster.as_ref().map(|c| c.node.clone());
        let metrics = hub.metrics.clone();
        tokio::task::spawn_blocking(move || {
            analysis::Analysis::start(&config, &database, history, node.as_deref(), metrics)
        })
        .await
        .map_err(|e| std::io::Error::other(format!("starting the game reviews failed: {e}")))?
        .map_err(|e| std::io::Error::other(format!("cannot start the game reviews: {e}")))?
    };
    let app = net::http::router(hub.clone(), accounts.clone(), shared_queue).merge(
        net::analysis_api::router(hub.clone(), accounts.clone(), reviews),
    );
    let closing = hub.clone();
    let (down_tx, down_rx) = tokio::sync::watch::channel(false);
    if let Some(listener) = metrics_listener {
        let app = net::http::metrics_router(hub.clone());
        let mut down = down_rx.clone();
        let hub = hub.clone();
        tokio::spawn(net::accept::serve(
            listener,
            app,
            hub,
            net::accept::Listener::Metrics,
            async move {
                let _ = down.wait_for(|d| *d).await;
            },
        ));
    }
    let draining = cluster.clone();
    net::accept::serve(
        listener,
        app,
        hub.clone(),
        net::accept::Listener::Public,
        async move {
            shutdown.await;
            // A node of a cluster hands its rooms over before it closes its connections.
            if let Some(cluster) = draining {
                cluster.drain(grace).await;
            }
            let _ = down_tx.send(true);
            closing.shut_down();
        },
    )
    .await?;
    drop(down_rx);
    // axum does not wait for upgraded WebSockets: wait (bounded) until every connection
    // has sent its close frame (1012) and finished, so clients learn it is a restart.
    let deadline = tokio::time::Instant::now() + grace;
    while hub.open_connections() > 0 && tokio::time::Instant::now() < deadline {
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    Ok(())
}
