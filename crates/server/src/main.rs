//! `dominion-server`: see `--help` for every setting.
//!
//! Besides serving, the binary checks its data directory before it listens (see
//! `gamelog::datadir`), answers `healthcheck` (for Docker) and `backup FILE`: a copy of
//! the running server's SQLite database in one online-backup step, checked, then
//! renamed into place (`dominion_store::backup` says why one step), `hash-cost` (what one
//! password hash costs here) and `admin …` (operators' account commands).

use clap::Parser;
use dominion_server::config::{LogFormat, Tool};
use dominion_server::gamelog::datadir;
use dominion_server::{Config, serve};
use futures_util::FutureExt;
use std::io::IsTerminal;
use std::process::ExitCode;
use tracing_subscriber::EnvFilter;

/// mimalloc instead of glibc's malloc: under load a reply's frames, events and views are
/// many small short-lived allocations, and glibc's malloc and free were about 5% of the
/// server's CPU (docs/load.md, *Where the CPU goes*).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[tokio::main]
async fn main() -> ExitCode {
    let config = Config::parse();
    match &config.command {
        Some(Tool::Healthcheck) => return healthcheck(&config.addr).await,
        Some(Tool::Backup { .. }) if config.database.is_some() => {
            eprintln!(
                "backup copies the SQLite database in --data-dir; this server stores in \
                 PostgreSQL (--database): back that up with pg_dump"
            );
            return ExitCode::FAILURE;
        }
        Some(Tool::Backup { file, force }) => {
            let (dir, file, force) = (config.data_dir.clone(), file.clone(), *force);
            return tokio::task::spawn_blocking(move || backup(&dir, &file, force))
                .await
                .unwrap_or(ExitCode::FAILURE);
        }
        Some(Tool::HashCost { rounds }) => {
            let cost = dominion_server::accounts::password::Cost {
                memory_kib: config.argon2_memory_kib,
                iterations: config.argon2_iterations,
            };
            let rounds = *rounds;
            return match tokio::task::spawn_blocking(move || {
                dominion_server::accounts::Accounts::measure(cost, rounds)
            })
            .await
            {
                Ok(Ok((wall, cpu))) => {
                    println!(
                        "Argon2id m={} KiB, t={}, p=1: {:.1} ms of CPU per hash ({:.1} ms wall-clock; mean of {rounds}, one thread)",
                        cost.memory_kib,
                        cost.iterations,
                        cpu.as_secs_f64() * 1000.0,
                        wall.as_secs_f64() * 1000.0
                    );
                    ExitCode::SUCCESS
                }
                Ok(Err(e)) => {
                    eprintln!("{e}");
                    ExitCode::FAILURE
                }
                Err(e) => {
                    eprintln!("{e}");
                    ExitCode::FAILURE
                }
            };
        }
        Some(Tool::Admin(command)) => {
            let (config, command) = (config.clone(), command.clone());
            return tokio::task::spawn_blocking(
                move || match dominion_server::accounts::admin::run(&config, &command) {
                    Ok(text) => {
                        print!("{text}");
                        ExitCode::SUCCESS
                    }
                    Err(e) => {
                        eprintln!("{e}");
                        ExitCode::FAILURE
                    }
                },
            )
            .await
            .unwrap_or(ExitCode::FAILURE);
        }
        None => {}
    }
    let filter = EnvFilter::try_new(&config.log).unwrap_or_else(|e| {
        eprintln!("bad --log filter {:?} ({e}); using info", config.log);
        EnvFilter::new("info")
    });
    // Colour only for a person at a terminal: escape codes in `docker compose logs`, a
    // journal or a file are noise. NO_COLOR (https://no-color.org) turns it off there too.
    let ansi = std::io::stdout().is_terminal()
        && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    match config.log_format {
        LogFormat::Text => tracing_subscriber::fmt()
            .with_env_filter(filter)
            .with_ansi(ansi)
            .init(),
        LogFormat::Json => tracing_subscriber::fmt()
            .json()
            .with_env_filter(filter)
            .with_ansi(false)
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
    // One signal future, awaited by the data-directory wait, `serve` and the backstop.
    let signal = shutdown_signal().boxed().shared();

    // The data directory first: a server that cannot write refuses to start, with the
    // owner, mode and fix; with --wait-for-data-dir it waits for the fix instead.
    let check_config = config.clone();
    let checked = tokio::task::spawn_blocking(move || datadir::check(&check_config))
        .await
        .unwrap_or_else(|e| {
            Err(dominion_store::StoreError::Migration {
                version: 0,
                reason: format!("the start-up check did not finish: {e}"),
            })
        });
    // What to call the store in messages: the data directory, or the URL without its
    // password.
    let store_name = config
        .store_database()
        .map_or_else(|_| "--database".to_string(), |d| d.describe());
    if let Err(e) = checked {
        let Some(explanation) = datadir::explain(&e, &config.data_dir) else {
            eprintln!("cannot open the store {store_name}: {e}");
            // A --database that is no PostgreSQL URL is a configuration error like an
            // unwritable directory: a restart alone will not help.
            return if matches!(e, dominion_store::StoreError::NotPostgresUrl { .. }) {
                ExitCode::from(datadir::EXIT_DATA_DIR)
            } else {
                ExitCode::FAILURE
            };
        };
        if !config.wait_for_data_dir {
            eprintln!(
                "{explanation}  (exit status {}; with --wait-for-data-dir the server waits for \
                 the fix instead)",
                datadir::EXIT_DATA_DIR
            );
            return ExitCode::from(datadir::EXIT_DATA_DIR);
        }
        match datadir::wait_until_writable(&config, &listener, signal.clone(), explanation).await {
            datadir::Waited::Ready => {}
            datadir::Waited::Stopped => return ExitCode::SUCCESS,
            datadir::Waited::Failed(why) => {
                eprintln!("cannot open the store {store_name}: {why}");
                return ExitCode::FAILURE;
            }
        }
    }

    // After the signal, connections get `grace` to close; every reply is on disk already,
    // so exiting then loses nothing.
    let deadline = {
        let signal = signal.clone();
        async move {
            signal.await;
            // `serve` waits up to `grace` for connections to close; this is the backstop.
            tokio::time::sleep(grace + std::time::Duration::from_secs(1)).await;
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

/// `dominion-server backup FILE`: a consistent copy of the running server's database
/// (see `dominion_store::backup`), then what it holds.
fn backup(data_dir: &std::path::Path, file: &std::path::Path, force: bool) -> ExitCode {
    match dominion_store::backup(data_dir, file, force) {
        Ok(r) => {
            println!(
                "backed up {} to {}: {} bytes, schema {}, integrity_check ok; {} rooms, \
                 {} games ({} in progress, {} finished, {} abandoned), {} replies",
                r.source.display(),
                r.file.display(),
                r.bytes,
                r.schema_version,
                r.rooms,
                r.games,
                r.games_in_progress,
                r.games_finished,
                r.games_abandoned,
                r.replies
            );
            ExitCode::SUCCESS
        }
        Err(e @ dominion_store::StoreError::BackupExists(_)) => {
            eprintln!("backup: {e}; pass --force to replace it");
            ExitCode::FAILURE
        }
        Err(e) => {
            eprintln!("backup of {} failed: {e}", data_dir.display());
            ExitCode::FAILURE
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
        Ok::<Vec<u8>, std::io::Error>(response)
    };
    match tokio::time::timeout(std::time::Duration::from_secs(5), check).await {
        Ok(Ok(response)) if response.starts_with(b"HTTP/1.1 200") => ExitCode::SUCCESS,
        Ok(Ok(response)) => {
            // The answer, whatever it says (a server waiting for its data directory says
            // it is starting; the reason is in its log): Docker keeps it in the
            // container's health log.
            let text = String::from_utf8_lossy(&response);
            let status = text.lines().next().unwrap_or_default();
            let body = text.split_once("\r\n\r\n").map_or("", |(_, b)| b);
            eprintln!("{target}/healthz did not answer 200: {status}\n{body}");
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
