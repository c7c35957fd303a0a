//! The TCP accept loop: what happens to a connection before axum sees a request.
//!
//! `axum::serve` offers no way to bound the time a client takes to send its request head,
//! nor to count a connection before it becomes a WebSocket, so half-sent or silent
//! requests could hold sockets (and file descriptors) forever: 300 of them once stopped
//! `/healthz` answering. Here every accepted connection:
//! - counts against `--max-connections` from accept on, together with the open
//!   WebSockets (one limit for both); over it, it gets a short 503 and is closed at once;
//! - has `--header-timeout` to send each request head (hyper's `header_read_timeout`,
//!   which also covers a connection that sends nothing, and a kept-alive one waiting for
//!   its next request);
//! - gets `TCP_NODELAY`: a reply is written as one buffer and must not wait for the
//!   client's delayed ACK (Nagle's algorithm added ~40 ms to every decision);
//! - carries its peer address to the handlers (`ConnectInfo`), for per-address limits.
//!
//! Each connection is served by hyper's HTTP/1 with upgrades, so a WebSocket keeps its
//! place in the count. `--metrics-addr` runs a second loop of this kind on its own
//! address, serving only `/metrics` and `/healthz`. At shutdown the loop stops
//! accepting and gives each plain HTTP connection up to `--shutdown-grace` to finish;
//! upgraded WebSockets are the hub's to close (1012), and `crate::serve` waits for them.

use crate::rooms::hub::Hub;
use axum::Router;
use axum::extract::ConnectInfo;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tower::ServiceExt;

/// What a refused connection is told, written without waiting (it fits any socket
/// buffer) before the socket is closed.
const BUSY: &[u8] = b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain\r\n\
content-length: 38\r\nconnection: close\r\n\r\ntoo many connections; try again later\n";

/// Accepts until `shutdown` completes, then lets each HTTP connection finish its request
/// (at most `grace`). Upgraded WebSockets are not waited for here: the hub closes them.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    hub: Arc<Hub>,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let http_open = Arc::new(AtomicUsize::new(0));
    let (stop, stopped) = watch::channel(false);
    let header_timeout = hub.config.header_timeout;
    tokio::pin!(shutdown);
    loop {
        let (tcp, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(pair) => pair,
                Err(e) => {
                    // Out of file descriptors, or a connection reset before accept: wait
                    // a little so a full table does not spin the loop, then go on.
                    tracing::warn!("accept failed: {e}");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let open = http_open.load(Ordering::Acquire) + hub.open_connections();
        if open >= hub.config.max_connections {
            hub.metrics.connections_refused.inc();
            let _ = tcp.try_write(BUSY);
            continue;
        }
        hub.metrics.connections_accepted.inc();
        prepare(&tcp);
        let guard = Counted::new(http_open.clone());
        let app = app.clone();
        let stopped = stopped.clone();
        tokio::spawn(async move {
            serve_one(tcp, peer, app, header_timeout, stopped).await;
            drop(guard);
        });
    }
    drop(listener);
    let _ = stop.send(true);
    let deadline = tokio::time::Instant::now() + hub.config.shutdown_grace;
    while http_open.load(Ordering::Acquire) > 0 && tokio::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    Ok(())
}

/// Socket options for an accepted connection: `TCP_NODELAY`, so what the writer flushes
/// leaves at once instead of waiting for the client's delayed ACK.
fn prepare(tcp: &TcpStream) {
    if let Err(e) = tcp.set_nodelay(true) {
        tracing::debug!("cannot set TCP_NODELAY: {e}");
    }
}

/// One HTTP/1.1 connection, with upgrades, until it closes, upgrades or times out.
async fn serve_one(
    tcp: TcpStream,
    peer: SocketAddr,
    app: Router,
    header_timeout: Duration,
    mut stopped: watch::Receiver<bool>,
) {
    let service = hyper::service::service_fn(move |mut req: hyper::Request<Incoming>| {
        req.extensions_mut().insert(ConnectInfo(peer));
        app.clone().oneshot(req)
    });
    let conn = hyper::server::conn::http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(header_timeout)
        .serve_connection(TokioIo::new(tcp), service)
        .with_upgrades();
    tokio::pin!(conn);
    tokio::select! {
        result = conn.as_mut() => {
            if let Err(e) = result {
                tracing::debug!(%peer, "http connection ended: {e}");
            }
        }
        _ = async { stopped.wait_for(|s| *s).await.is_ok() } => {
            conn.as_mut().graceful_shutdown();
            let _ = conn.await;
        }
    }
}

/// Counts one HTTP connection for as long as it lives.
struct Counted(Arc<AtomicUsize>);

impl Counted {
    fn new(n: Arc<AtomicUsize>) -> Counted {
        n.fetch_add(1, Ordering::AcqRel);
        Counted(n)
    }
}

impl Drop for Counted {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn accepted_sockets_get_nodelay() {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let client = TcpStream::connect(listener.local_addr().unwrap());
        let (client, accepted) = tokio::join!(client, listener.accept());
        let (tcp, _) = accepted.unwrap();
        assert!(!tcp.nodelay().unwrap(), "Linux's default is Nagle on");
        prepare(&tcp);
        assert!(tcp.nodelay().unwrap());
        drop(client);
    }
}
