//! `dominion-server`: see `--help` for every setting.

use clap::Parser;
use dominion_server::{Config, serve};
use std::process::ExitCode;
use tracing_subscriber::EnvFilter;

#[tokio::main]
async fn main() -> ExitCode {
    let config = Config::parse();
    let filter = EnvFilter::try_new(&config.log).unwrap_or_else(|e| {
        eprintln!("bad --log filter {:?} ({e}); using info", config.log);
        EnvFilter::new("info")
    });
    tracing_subscriber::fmt().with_env_filter(filter).init();
    let listener = match tokio::net::TcpListener::bind(&config.addr).await {
        Ok(listener) => listener,
        Err(e) => {
            eprintln!("cannot listen on {}: {e}", config.addr);
            return ExitCode::FAILURE;
        }
    };
    match listener.local_addr() {
        Ok(addr) => tracing::info!("listening on http://{addr} (WebSocket at ws://{addr}/ws)"),
        Err(e) => tracing::warn!("listening, address unknown: {e}"),
    }
    match serve(config, listener, shutdown_signal()).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("server error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Ctrl-C, or SIGTERM on Unix (what `docker stop` sends).
async fn shutdown_signal() {
    let ctrl_c = async {
        if let Err(e) = tokio::signal::ctrl_c().await {
            tracing::warn!("cannot listen for Ctrl-C: {e}");
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(e) => {
                tracing::warn!("cannot listen for SIGTERM: {e}");
                std::future::pending::<()>().await;
            }
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = term => {},
    }
    tracing::info!("shutting down");
}
