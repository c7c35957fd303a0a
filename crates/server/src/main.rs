//! `dominion-server`: see `--help` for every setting.

use clap::Parser;
use dominion_server::config::{Command, LogFormat};
use dominion_server::{Config, serve};
use std::process::ExitCode;
use tracing_subscriber::EnvFilter;

#[tokio::main]
async fn main() -> ExitCode {
    let config = Config::parse();
    if config.command == Some(Command::Healthcheck) {
        return healthcheck(&config.addr).await;
    }
    let filter = EnvFilter::try_new(&config.log).unwrap_or_else(|e| {
        eprintln!("bad --log filter {:?} ({e}); using info", config.log);
        EnvFilter::new("info")
    });
    match config.log_format {
        LogFormat::Text => tracing_subscriber::fmt().with_env_filter(filter).init(),
        LogFormat::Json => tracing_subscriber::fmt()
            .json()
            .with_env_filter(filter)
            .init(),
    }
    let grace = config.shutdown_grace;
    let listener = match tokio::net::TcpListener::bind(&config.addr).await {
        Ok(listener) => listener,
        Err(e) => {
            eprintln!("cannot listen on {}: {e}", config.addr);
            return ExitCode::FAILURE;
        }
    };
    // After the signal, connections get `grace` to close; every reply is on disk already,
    // so exiting then loses nothing.
    let (signalled_tx, signalled) = tokio::sync::oneshot::channel::<()>();
    let signal = async move {
        shutdown_signal().await;
        let _ = signalled_tx.send(());
    };
    let deadline = async move {
        if signalled.await.is_ok() {
            // `serve` waits up to `grace` for connections to close; this is the backstop.
            tokio::time::sleep(grace + std::time::Duration::from_secs(1)).await;
        } else {
            std::future::pending::<()>().await;
        }
    };
    tokio::select! {
        result = serve(config, listener, signal) => match result {
            Ok(()) => {
                tracing::info!("stopped");
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("server error: {e}");
                ExitCode::FAILURE
            }
        },
        () = deadline => {
            tracing::warn!("connections still open after {grace:?}; exiting anyway");
            ExitCode::SUCCESS
        }
    }
}

/// `dominion-server healthcheck`: GET /healthz on `addr` (0.0.0.0 / [::] mean this host).
async fn healthcheck(addr: &str) -> ExitCode {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let target = addr
        .replace("0.0.0.0", "127.0.0.1")
        .replace("[::]", "[::1]");
    let check = async {
        let mut stream = tokio::net::TcpStream::connect(&target).await?;
        stream
            .write_all(b"GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
            .await?;
        let mut response = Vec::new();
        stream.read_to_end(&mut response).await?;
        Ok::<bool, std::io::Error>(response.starts_with(b"HTTP/1.1 200"))
    };
    match tokio::time::timeout(std::time::Duration::from_secs(5), check).await {
        Ok(Ok(true)) => ExitCode::SUCCESS,
        Ok(Ok(false)) => {
            eprintln!("{target}/healthz did not answer 200");
            ExitCode::FAILURE
        }
        Ok(Err(e)) => {
            eprintln!("cannot reach {target}: {e}");
            ExitCode::FAILURE
        }
        Err(_) => {
            eprintln!("{target} did not answer within 5 s");
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
