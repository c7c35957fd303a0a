//! The data directory at start: the check that the server can write its data directory
//! and database, the explanation when it cannot, and the wait for an operator to fix it.
//!
//! A server that cannot write would accept rooms it cannot keep, so it refuses to start:
//! before it listens, [`check`] proves that the directory and the database can be
//! written (a file created there, a row committed).
//! The usual cause in a container is a volume or bind mount owned by another user than
//! the image's (uid 10001), and the fix is one `chown`; the message says so, with the
//! numbers (owner, mode, the server's own uid) that make it plain which.
//!
//! Without `--wait-for-data-dir` the server exits with [`EXIT_DATA_DIR`] (78, `EX_CONFIG`
//! in sysexits.h), which a supervisor can tell from a crash (systemd:
//! `RestartPreventExitStatus=78`). With it (the Docker image sets it) the server stays
//! up: it checks again with a growing interval (10 s doubling to at most 60 s) and
//! answers every HTTP request, `/healthz` included, with 503, so the container shows as
//! unhealthy instead of restarting over and over under `restart: unless-stopped`. Once
//! the directory is fixed the server starts as usual, without a restart.
//!
//! The 503 says only that the server is starting ([`STARTING`]): anyone may ask, and the
//! explanation names paths, owners, modes and the server's uid. That goes to the log,
//! where the operator looks (`docker compose logs`).

use crate::Config;
use axum::Router;
use axum::http::StatusCode;
use dominion_store::StoreError;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::future::Future;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;
use tokio::net::TcpListener;
use tower::ServiceExt;

/// The exit status for a data directory or database the server cannot write:
/// `EX_CONFIG` (78) from sysexits.h, "something was found in an unconfigured or
/// misconfigured state" — not a crash, so a restart alone will not help.
pub const EXIT_DATA_DIR: u8 = 78;

/// The first wait before checking again, and the longest: the interval doubles from the
/// first to the last, so a quick fix is noticed quickly and a forgotten server logs at
/// most once a minute.
pub const RETRY_FIRST: Duration = Duration::from_secs(10);
pub const RETRY_MAX: Duration = Duration::from_secs(60);

/// Connections answered at once while waiting; more are closed unanswered, so a flood
/// cannot pile up tasks while the server is not even started.
const WAITING_CONNECTIONS: usize = 64;

/// What every request is answered while the server waits: that it is starting, and no
/// more (the reason, with paths and ids, is in the log).
pub const STARTING: &str = "starting: the server is not ready yet (the reason is in its log)\n";

/// Opens the store as the server will (creating the directory and database if needed,
/// migrating, and the start-up write check), then closes it again. With `--database`,
/// this is where a bad URL, an unreachable PostgreSQL or a schema too new is found.
/// Blocking (PostgreSQL's client must not run on an async worker).
pub fn check(config: &Config) -> Result<(), StoreError> {
    dominion_store::Store::open_database(&config.store_database()?).map(drop)
}

/// Whether `error` means the data directory or database cannot be written (what an
/// operator fixes with chown, chmod or a read-write mount) rather than some other fault
/// (a newer schema, a damaged file).
pub fn is_not_writable(error: &StoreError) -> bool {
    match error {
        StoreError::NotWritable { .. } => true,
        StoreError::DataDir { source, .. } => matches!(
            source.kind(),
            std::io::ErrorKind::PermissionDenied | std::io::ErrorKind::ReadOnlyFilesystem
        ),
        _ => false,
    }
}

/// The whole story of a data directory the server cannot write: what failed, who owns
/// the directory and database and with which mode, which user the server runs as, and
/// the command that fixes it. `None` for errors that are not about permissions.
pub fn explain(error: &StoreError, data_dir: &Path) -> Option<String> {
    if !is_not_writable(error) {
        return None;
    }
    let mut out = format!("{error}\n");
    let (uid, gid) = running_as();
    let db = data_dir.join(dominion_store::DB_FILE);
    let mut paths = vec![data_dir.to_path_buf()];
    for suffix in ["", "-wal", "-shm"] {
        let mut name = db.clone().into_os_string();
        name.push(suffix);
        let p = std::path::PathBuf::from(name);
        if p.exists() {
            paths.push(p);
        }
    }
    // A --data-dir that does not exist yet is created in its parent.
    if !data_dir.exists()
        && let Some(parent) = data_dir.parent().filter(|p| !p.as_os_str().is_empty())
    {
        paths[0] = parent.to_path_buf();
    }
    let mut foreign = false;
    let mut no_write_bit = false;
    for p in &paths {
        match describe(p) {
            Some((owner, mode, text)) => {
                out.push_str(&format!("  {}: {text}\n", p.display()));
                if owner != uid {
                    foreign = true;
                } else if mode & 0o200 == 0 {
                    no_write_bit = true;
                }
            }
            None => out.push_str(&format!("  {}: cannot be read\n", p.display())),
        }
    }
    out.push_str(&format!("  the server runs as uid {uid}, gid {gid}\n"));
    let shown = paths[0].display();
    let text = error.to_string();
    if text.contains("Read-only file system") || text.contains("os error 30") {
        out.push_str(
            "  fix: the file system is mounted read-only; mount the data directory \
             read-write (in docker-compose.yml, no `:ro` on the volume)\n",
        );
    } else if uid == 0 {
        out.push_str(
            "  the server runs as root, so permissions are not the cause: check the mount \
             and the disk\n",
        );
    } else if !data_dir.exists() {
        let dir = data_dir.display();
        out.push_str(&format!(
            "  fix: create it for the server's user, as root: mkdir -p {dir} && \
             chown {uid}:{gid} {dir}\n"
        ));
    } else if foreign {
        out.push_str(&format!(
            "  fix: give it to the server's user, as root: chown -R {uid}:{gid} {shown}\n"
        ));
        if in_container() {
            out.push_str(&format!(
                "       with docker compose: docker compose run --rm --user root \
                 --entrypoint chown dominion -R {uid}:{gid} {shown}\n"
            ));
        }
    } else if no_write_bit {
        out.push_str(&format!(
            "  fix: let its owner write there: chmod -R u+rwX {shown}\n"
        ));
    } else {
        out.push_str(&format!(
            "  fix: make {shown} and the files in it writable by uid {uid}\n"
        ));
    }
    Some(out)
}

/// (owner uid, mode, "owned by uid U, gid G, mode drwxr-xr-x (0755)").
fn describe(path: &Path) -> Option<(u32, u32, String)> {
    use std::os::unix::fs::MetadataExt;
    let m = std::fs::metadata(path).ok()?;
    let mode = m.mode() & 0o7777;
    let kind = if m.is_dir() { 'd' } else { '-' };
    let bits: String = (0..9)
        .map(|i| {
            let set = mode & (0o400 >> i) != 0;
            match (set, i % 3) {
                (false, _) => '-',
                (true, 0) => 'r',
                (true, 1) => 'w',
                (true, _) => 'x',
            }
        })
        .collect();
    let text = format!(
        "owned by uid {}, gid {}, mode {kind}{bits} ({mode:04o})",
        m.uid(),
        m.gid()
    );
    Some((m.uid(), mode, text))
}

/// The effective user and group this process runs as.
fn running_as() -> (u32, u32) {
    // SAFETY: geteuid and getegid cannot fail and touch no memory of ours.
    unsafe { (libc::geteuid(), libc::getegid()) }
}

/// Docker and Podman leave these files in every container.
fn in_container() -> bool {
    Path::new("/.dockerenv").exists() || Path::new("/run/.containerenv").exists()
}

/// How waiting for the data directory ended.
pub enum Waited {
    /// The directory can be written now: start.
    Ready,
    /// Stopped (SIGTERM, Ctrl-C) while waiting.
    Stopped,
    /// Another fault than permissions turned up (it is in the message): exit.
    Failed(String),
}

/// Checks again and again, with a growing interval, until the data directory can be
/// written; meanwhile logs `explanation` (the last one found) at each check and answers
/// every request on `listener` with 503 and [`STARTING`], so `dominion-server
/// healthcheck` and Docker's health status report the server unhealthy.
pub async fn wait_until_writable(
    config: &Config,
    listener: &TcpListener,
    mut stop: impl Future<Output = ()> + Unpin,
    mut explanation: String,
) -> Waited {
    let open = Arc::new(AtomicUsize::new(0));
    let mut interval = RETRY_FIRST;
    let addr = listener
        .local_addr()
        .map_or_else(|_| "this address".to_string(), |a| a.to_string());
    loop {
        tracing::warn!(
            "waiting for the data directory (--wait-for-data-dir); checking again in {}s; \
             until then HTTP requests to {addr} get 503:\n{explanation}",
            interval.as_secs()
        );
        let next = tokio::time::sleep(interval);
        tokio::pin!(next);
        loop {
            tokio::select! {
                () = &mut next => break,
                () = &mut stop => return Waited::Stopped,
                accepted = listener.accept() => {
                    let Ok((tcp, _)) = accepted else { continue };
                    if open.load(Ordering::Acquire) >= WAITING_CONNECTIONS {
                        continue;
                    }
                    open.fetch_add(1, Ordering::AcqRel);
                    let open = open.clone();
                    let header_timeout = config.header_timeout;
                    tokio::spawn(async move {
                        answer_unavailable(tcp, header_timeout).await;
                        open.fetch_sub(1, Ordering::AcqRel);
                    });
                }
            }
        }
        let check_config = config.clone();
        match tokio::task::spawn_blocking(move || check(&check_config)).await {
            Ok(Ok(())) => {
                tracing::info!(
                    "the data directory {} can be written now; starting",
                    config.data_dir.display()
                );
                return Waited::Ready;
            }
            Ok(Err(e)) => match explain(&e, &config.data_dir) {
                Some(text) => explanation = text,
                None => return Waited::Failed(e.to_string()),
            },
            Err(e) => return Waited::Failed(format!("the check did not finish: {e}")),
        }
        interval = (interval * 2).min(RETRY_MAX);
    }
}

/// One connection while waiting: its request (one, then close) is answered 503 with
/// [`STARTING`] and `Retry-After`.
async fn answer_unavailable(tcp: tokio::net::TcpStream, header_timeout: Duration) {
    let app = Router::new().fallback(|| async {
        (
            StatusCode::SERVICE_UNAVAILABLE,
            [("retry-after", "10")],
            STARTING,
        )
    });
    let service =
        hyper::service::service_fn(move |req: hyper::Request<Incoming>| app.clone().oneshot(req));
    let _ = hyper::server::conn::http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(header_timeout)
        .keep_alive(false)
        .serve_connection(TokioIo::new(tcp), service)
        .await;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modes_read_as_ls_shows_them() {
        let dir = tempfile::tempdir().unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o750)).unwrap();
        let (_, mode, text) = describe(dir.path()).unwrap();
        assert_eq!(mode, 0o750);
        assert!(text.ends_with("mode drwxr-x--- (0750)"), "{text}");
    }

    #[test]
    fn other_store_errors_are_not_explained_as_permissions() {
        let e = StoreError::SchemaTooNew {
            found: 9,
            supported: 2,
        };
        assert!(explain(&e, Path::new("/nonexistent")).is_none());
        let e = StoreError::NotWritable {
            what: "the data directory",
            path: "/nonexistent".into(),
            reason: "Permission denied (os error 13)".into(),
        };
        let text = explain(&e, Path::new("/nonexistent")).unwrap();
        assert!(text.contains("the server runs as uid"), "{text}");
    }
}
