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
//! How a reply travels: `connection` reads a frame, checks budget, size and shape, and
//! hands the command to its room's channel; the `room` task checks it against the game
//! and calls the engine; the room's log records it (`store`); `projection` turns the new
//! state into one frame per viewer; each viewer's bounded queue (`outbound`) carries it
//! to that viewer's socket.

pub mod budget;
pub mod config;
pub mod connection;
pub mod http;
pub mod hub;
pub mod inbound;
pub mod outbound;
pub mod projection;
pub mod refusal;
pub mod room;
pub mod store;
pub mod token;

pub use config::Config;

use std::future::Future;
use std::sync::Arc;
use tokio::net::TcpListener;

/// Serves until `shutdown` completes; then every WebSocket is closed with 1001.
pub async fn serve(
    config: Config,
    listener: TcpListener,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    std::fs::create_dir_all(&config.data_dir).map_err(|e| {
        std::io::Error::new(
            e.kind(),
            format!("cannot create data dir {}: {e}", config.data_dir.display()),
        )
    })?;
    let hub = hub::Hub::new(Arc::new(config), Arc::new(store::NoLog));
    let app = http::router(hub.clone());
    let closing = hub.clone();
    axum::serve(listener, app)
        .with_graceful_shutdown(async move {
            shutdown.await;
            closing.shut_down();
        })
        .await
}
