//! Real servers for tests: [`TempPostgres`] and [`TempRedis`] start PostgreSQL and Redis
//! from the machine's own binaries, on 127.0.0.1 and a free port, in a temporary
//! directory, and stop them again — also when a test panics, and also when the test
//! process dies without unwinding (see `spawn.rs`). Nothing is mocked: the store and the
//! cluster are tested against the servers they run against in production.
//!
//! Starting PostgreSQL costs a couple of seconds (`initdb`), so a test binary shares one
//! ([`TempPostgres::shared`]) and gives each test a database of its own
//! ([`TempPostgres::fresh_database`]).

mod pg;
mod redis;
mod spawn;

pub use pg::TempPostgres;
pub use redis::TempRedis;

use std::process::Child;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Why a server could not be started.
#[derive(Debug, thiserror::Error)]
pub enum KitError {
    /// The server's binaries are not on this machine.
    #[error(
        "{what} is not installed: {looked}; install the Debian package {package} (see .ci/debian-packages, or run scripts/setup-test-deps.sh)"
    )]
    NotInstalled {
        what: &'static str,
        looked: String,
        package: &'static str,
    },
    #[error("{what}: {source}")]
    Io {
        what: String,
        source: std::io::Error,
    },
    /// The server started but did not become ready, or a setup step failed; `output` is
    /// the end of what it printed.
    #[error("{what}\n--- its output ---\n{output}")]
    Failed { what: String, output: String },
}

fn io(what: impl Into<String>) -> impl FnOnce(std::io::Error) -> KitError {
    let what = what.into();
    move |source| KitError::Io { what, source }
}

/// A port that was free a moment ago on 127.0.0.1 (the server is started on it next; if
/// another process takes it in between, the start fails and is retried on a new one).
fn free_port() -> Result<u16, KitError> {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").map_err(io("bind 127.0.0.1:0"))?;
    Ok(listener
        .local_addr()
        .map_err(io("the local address of 127.0.0.1:0"))?
        .port())
}

/// A temporary directory for a server, named `PREFIX-PID-RANDOM` after this process.
/// Directories of the same kind left by processes that no longer run (a test binary
/// killed with SIGKILL runs no cleanup; its servers die with it, see `spawn.rs`, but
/// their directories stay) are removed first, so they do not pile up on a machine that
/// runs the tests again and again.
fn server_dir(prefix: &str) -> Result<std::path::PathBuf, KitError> {
    let tmp = std::env::temp_dir();
    for entry in std::fs::read_dir(&tmp).into_iter().flatten().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(pid) = name
            .strip_prefix(prefix)
            .and_then(|rest| rest.strip_prefix('-'))
            .and_then(|rest| rest.split('-').next())
            .and_then(|pid| pid.parse::<u32>().ok())
        else {
            continue;
        };
        if !std::path::Path::new(&format!("/proc/{pid}")).exists() {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
    Ok(tempfile::Builder::new()
        .prefix(&format!("{prefix}-{}-", std::process::id()))
        .tempdir_in(&tmp)
        .map_err(io("create a temporary directory"))?
        .keep())
}

/// Probes a just-started server until `probe` succeeds, at most `timeout`, polling every
/// `every`; fails at once, with the end of `log`, if the server's process exits first.
/// `what` names the server and what readiness means ("postgres … accept connections").
fn wait_ready<E: std::fmt::Display>(
    child: &Mutex<Option<Child>>,
    log: &std::path::Path,
    (name, ready): (&str, &str),
    timeout: Duration,
    every: Duration,
    mut probe: impl FnMut() -> Result<(), E>,
) -> Result<(), KitError> {
    let started = Instant::now();
    loop {
        if let Some(status) = child
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .as_mut()
            .and_then(|c| c.try_wait().ok().flatten())
        {
            return Err(KitError::Failed {
                what: format!("{name} exited at start ({status})"),
                output: tail(log, 30),
            });
        }
        match probe() {
            Ok(()) => return Ok(()),
            Err(e) if started.elapsed() > timeout => {
                return Err(KitError::Failed {
                    what: format!("{name} did not {ready} within {timeout:?} ({e})"),
                    output: tail(log, 30),
                });
            }
            Err(_) => std::thread::sleep(every),
        }
    }
}

/// Kills and reaps a server's process, if it still has one (not its directory: a failed
/// start is retried in it).
fn kill_child(child: &Mutex<Option<Child>>) {
    if let Some(mut child) = child.lock().unwrap_or_else(|e| e.into_inner()).take() {
        let _ = child.kill();
        let _ = child.wait();
    }
}

/// The last `lines` lines of a log file (for error messages).
fn tail(path: &std::path::Path, lines: usize) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let all: Vec<&str> = text.lines().collect();
    all[all.len().saturating_sub(lines)..].join("\n")
}
