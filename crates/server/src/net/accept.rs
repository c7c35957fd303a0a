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
//! - carries its peer address to the handlers (`ConnectInfo`), and each request its
//!   client's address (`net::client_addr::ClientAddr`: the peer's, or the one a trusted
//!   proxy forwarded), for per-address limits and logs.
//!
//! Each connection is served by hyper's HTTP/1 with upgrades. A connection that becomes
//! a WebSocket moves from this loop's count to the hub's at the moment the hub admits it
//! ([`HttpPlace`]), so it is counted once, never twice and never not at all. `--metrics-addr` runs a second loop of this kind on its own
//! address, serving only `/metrics` and `/healthz`. At shutdown the loop stops
//! accepting and gives each plain HTTP connection up to `--shutdown-grace` to finish;
//! upgraded WebSockets are the hub's to close (1012), and `crate::serve` waits for them.
//!
//! Fairness (issue 23): no one address can take every slot, and the operator can always
//! see the server's health.
//! - Every connection also counts against `--connections-per-address` for its client's
//!   address ([`address_key`]: an IPv4 address, or an IPv6 address's /64), from accept
//!   on and for as long as it lives — idle keep-alive, slowloris and WebSockets alike,
//!   since each holds a slot the same way. Over it, the connection gets a 503 saying so
//!   and is closed. The count is a table of the addresses with a connection open now
//!   (an entry leaves with its last connection), so it is bounded by the connections
//!   themselves and never refuses an address for what another did. The connection's
//!   place in it ([`AddressSlot`]) goes with its requests to the handlers, so that the
//!   WebSocket a request becomes keeps it, and a link from a node of the cluster is
//!   counted under the client it carries (`net::http`), not under the node.
//! - With every public slot taken, [`HEALTH_RESERVE`] more connections are accepted for
//!   `/healthz` and `/metrics` only (one request each, then closed; anything else gets
//!   the 503), still within their address's cap.
//! - The `--metrics-addr` listener has a small bound of its own and does not count the
//!   public connections: it answers however full the public address is.
//!
//! Behind a trusted proxy (`--trusted-proxies`), the peer is the proxy, and the client
//! is known only once a request's head has been read (`X-Forwarded-For`). So a
//! connection from a trusted proxy is not counted under any address at accept (it
//! still counts against `--max-connections`, and has `--header-timeout` for its
//! head); each of its requests is counted under its client's address from the moment
//! its head is read until it is answered — or, for a WebSocket, for as long as the
//! WebSocket lives — and one over its client's cap gets the 503. A proxy's idle
//! kept-alive connection thus counts for no client, and the proxy's many connections
//! are never capped as one address's. The trade-off: the per-address cap does not
//! bound a trusted proxy's connections before their first request head; the proxy
//! itself, `--max-connections` and `--header-timeout` do.

use crate::net::client_addr::{self, ClientAddr};
use crate::rooms::hub::Hub;
use axum::Router;
use axum::extract::ConnectInfo;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::collections::HashMap;
use std::future::Future;
use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tower::ServiceExt;

/// What a refused connection is told, written without waiting (it fits any socket
/// buffer) before the socket is closed.
const BUSY: &[u8] = b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain\r\n\
content-length: 38\r\nconnection: close\r\n\r\ntoo many connections; try again later\n";

/// What a connection over its address's cap is told, the same way.
const BUSY_ADDRESS: &[u8] = b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain\r\n\
content-length: 55\r\nconnection: close\r\n\r\ntoo many connections from your address; try again later\n";

/// The body of [`BUSY`], for a request on a reserved connection that is not for health.
pub const BUSY_TEXT: &str = "too many connections; try again later\n";

/// The body of [`BUSY_ADDRESS`], for a WebSocket link counted under its client's address.
pub const BUSY_ADDRESS_TEXT: &str = "too many connections from your address; try again later\n";

/// Connections accepted beyond `--max-connections` for `/healthz` and `/metrics` only.
pub const HEALTH_RESERVE: usize = 16;

/// Connections the `--metrics-addr` listener holds at once (its own bound: the public
/// connections do not count against it).
pub const METRICS_CONNECTIONS: usize = 32;

/// The paths a reserved connection may ask for.
const HEALTH_PATHS: &[&str] = &["/healthz", "/metrics"];

/// Which listener [`serve`] runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Listener {
    /// The public address (`--addr`): `--max-connections` over HTTP and WebSockets,
    /// `--connections-per-address`, and the health reserve.
    Public,
    /// `--metrics-addr`: [`METRICS_CONNECTIONS`] at once, nothing else counted.
    Metrics,
}

/// Accepts until `shutdown` completes, then lets each HTTP connection finish its request
/// (at most `grace`). Upgraded WebSockets are not waited for here: the hub closes them.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    hub: Arc<Hub>,
    kind: Listener,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let http_open = Arc::new(AtomicUsize::new(0));
    let reserve_open = Arc::new(AtomicUsize::new(0));
    let addresses = PerAddress::new(hub.config.connections_per_address);
    let trusted: Arc<[ipnet::IpNet]> = hub.config.trusted_proxies.nets().into();
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
        // A trusted proxy's connection is counted per request, under each request's
        // client (see the module doc).
        let proxy = client_addr::is_trusted(&trusted, peer.ip());
        let (counter, health_only, slot) = match kind {
            Listener::Metrics => {
                if http_open.load(Ordering::Acquire) >= METRICS_CONNECTIONS {
                    let _ = tcp.try_write(BUSY);
                    continue;
                }
                (&http_open, false, None)
            }
            Listener::Public => {
                let open = http_open.load(Ordering::Acquire) + hub.open_connections();
                let (counter, health_only) = if open < hub.config.max_connections {
                    (&http_open, false)
                } else if reserve_open.load(Ordering::Acquire) < HEALTH_RESERVE {
                    (&reserve_open, true)
                } else {
                    hub.metrics.connections_refused.inc();
                    let _ = tcp.try_write(BUSY);
                    continue;
                };
                if proxy {
                    (counter, health_only, None)
                } else {
                    let Some(slot) = addresses.enter(peer.ip()) else {
                        hub.metrics.connections_refused.inc();
                        let _ = tcp.try_write(BUSY_ADDRESS);
                        continue;
                    };
                    (counter, health_only, Some(Arc::new(slot)))
                }
            }
        };
        hub.metrics.connections_accepted.inc();
        prepare(&tcp);
        let place = Arc::new(HttpPlace(Mutex::new(Some(Counted::new(counter.clone())))));
        let app = app.clone();
        let stopped = stopped.clone();
        let how = Serving {
            place: place.clone(),
            peer,
            slot,
            per_request: (proxy && kind == Listener::Public).then(|| addresses.clone()),
            trusted: trusted.clone(),
            header_timeout,
            health_only,
            metrics: hub.metrics.clone(),
        };
        tokio::spawn(async move {
            serve_one(tcp, app, how, stopped).await;
            drop(place);
        });
    }
    drop(listener);
    let _ = stop.send(true);
    let deadline = tokio::time::Instant::now() + hub.config.shutdown_grace;
    while http_open.load(Ordering::Acquire) + reserve_open.load(Ordering::Acquire) > 0
        && tokio::time::Instant::now() < deadline
    {
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

/// How one accepted connection is served.
struct Serving {
    /// Its place in the count of connections not (yet) WebSockets.
    place: Arc<HttpPlace>,
    peer: SocketAddr,
    /// Its place in its address's count (the public listener's connections, but a
    /// trusted proxy's).
    slot: Option<Arc<AddressSlot>>,
    /// A trusted proxy's connection to the public listener: each request takes its own
    /// place in this count, under its client's address.
    per_request: Option<Arc<PerAddress>>,
    /// `--trusted-proxies`, to find each request's client.
    trusted: Arc<[ipnet::IpNet]>,
    header_timeout: Duration,
    /// Taken from the health reserve: `/healthz` and `/metrics` only, one request.
    health_only: bool,
    /// Counts the requests refused on a reserved connection.
    metrics: Arc<crate::metrics::Metrics>,
}

/// One HTTP/1.1 connection, with upgrades, until it closes, upgrades or times out.
async fn serve_one(tcp: TcpStream, app: Router, how: Serving, mut stopped: watch::Receiver<bool>) {
    let Serving {
        place,
        peer,
        slot,
        per_request,
        trusted,
        header_timeout,
        health_only,
        metrics,
    } = how;
    let service = hyper::service::service_fn(move |mut req: hyper::Request<Incoming>| {
        let client = client_addr::client_address(peer.ip(), &trusted, req.headers());
        let mut refused =
            (health_only && !HEALTH_PATHS.contains(&req.uri().path())).then(busy_response);
        // A trusted proxy's request: counted under its client until answered (a
        // WebSocket keeps it: the handler holds the slot for the socket's life).
        let slot = match &per_request {
            Some(table) if refused.is_none() => {
                let entered = table.enter(client).map(Arc::new);
                if entered.is_none() {
                    tracing::debug!(%client, via = %peer, "over its address's connection cap");
                    refused = Some(busy_address_response());
                }
                entered
            }
            _ => slot.clone(),
        };
        if refused.is_some() {
            metrics.connections_refused.inc();
        }
        req.extensions_mut().insert(ConnectInfo(peer));
        req.extensions_mut().insert(place.clone());
        req.extensions_mut().insert(ClientAddr(client));
        if let Some(slot) = slot {
            req.extensions_mut().insert(slot);
        }
        let app = app.clone();
        async move {
            if let Some(refused) = refused {
                return Ok(refused);
            }
            app.oneshot(req).await
        }
    });
    let conn = hyper::server::conn::http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(header_timeout)
        .keep_alive(!health_only)
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

/// The 503 a reserved connection gets for anything but health.
fn busy_response() -> axum::response::Response {
    use axum::response::IntoResponse;
    (axum::http::StatusCode::SERVICE_UNAVAILABLE, BUSY_TEXT).into_response()
}

/// The 503 a trusted proxy's request gets when its client's address is at its cap.
fn busy_address_response() -> axum::response::Response {
    use axum::response::IntoResponse;
    (
        axum::http::StatusCode::SERVICE_UNAVAILABLE,
        BUSY_ADDRESS_TEXT,
    )
        .into_response()
}

/// The key a client address is counted under — the one every per-address limit uses
/// (`budget::address_key`: IPv4 as it is, IPv6 by its /64, IPv4-mapped as IPv4).
fn address_key(ip: IpAddr) -> IpAddr {
    crate::budget::address_key(ip).ip()
}

/// The connections open now per client address (by [`address_key`]): an address is in
/// it only while it has one, so it holds at most as many entries as connections.
struct PerAddress {
    max: usize,
    open: Mutex<HashMap<IpAddr, usize>>,
}

impl PerAddress {
    fn new(max: usize) -> Arc<PerAddress> {
        Arc::new(PerAddress {
            max: max.max(1),
            open: Mutex::new(HashMap::new()),
        })
    }

    fn table(&self) -> std::sync::MutexGuard<'_, HashMap<IpAddr, usize>> {
        // Counts only: a panic elsewhere while holding it leaves them usable.
        self.open.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Counts a connection from `ip`, unless its address has as many as it may.
    fn enter(self: &Arc<Self>, ip: IpAddr) -> Option<AddressSlot> {
        let key = address_key(ip);
        let mut table = self.table();
        let n = table.entry(key).or_insert(0);
        if *n >= self.max {
            if *n == 0 {
                table.remove(&key);
            }
            return None;
        }
        *n += 1;
        Some(AddressSlot {
            table: self.clone(),
            key: Mutex::new(key),
        })
    }

    fn leave(table: &mut HashMap<IpAddr, usize>, key: IpAddr) {
        if let Some(n) = table.get_mut(&key) {
            *n -= 1;
            if *n == 0 {
                table.remove(&key);
            }
        }
    }
}

/// One connection's place in its address's count, until dropped. Shared by the HTTP
/// connection and the WebSocket it may become (each request carries it as an
/// extension), so it is let go when both are gone.
pub struct AddressSlot {
    table: Arc<PerAddress>,
    key: Mutex<IpAddr>,
}

impl AddressSlot {
    /// Counts this connection under `client` instead of the address it came from: a link
    /// from a node of the cluster, under the client it carries. False, with nothing
    /// changed, when `client`'s address has as many connections as it may.
    pub fn move_to(&self, client: IpAddr) -> bool {
        let to = address_key(client);
        let mut key = self.key.lock().unwrap_or_else(|e| e.into_inner());
        if *key == to {
            return true;
        }
        let mut table = self.table.table();
        let n = table.entry(to).or_insert(0);
        if *n >= self.table.max {
            if *n == 0 {
                table.remove(&to);
            }
            return false;
        }
        *n += 1;
        PerAddress::leave(&mut table, *key);
        *key = to;
        true
    }
}

impl Drop for AddressSlot {
    fn drop(&mut self) {
        let key = *self.key.get_mut().unwrap_or_else(|e| e.into_inner());
        PerAddress::leave(&mut self.table.table(), key);
    }
}

/// Counts one HTTP connection for as long as it lives.
struct Counted(Arc<AtomicUsize>);

/// A connection's place in the count of connections that are not WebSockets, from
/// accept on. The WebSocket handler gives it up ([`HttpPlace::release`]) right after the
/// hub admitted the socket, which counts it from then on: held until hyper finished the
/// upgrade, it counted the connection twice for that long, and a burst of connections
/// at `--max-connections` saw some refused under the limit.
pub struct HttpPlace(Mutex<Option<Counted>>);

impl HttpPlace {
    /// Leaves the count now (once; later calls and the drop do nothing more).
    pub fn release(&self) {
        if let Ok(mut place) = self.0.lock() {
            place.take();
        }
    }
}

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

    #[test]
    fn a_released_place_leaves_the_count_once() {
        let open = Arc::new(AtomicUsize::new(0));
        let place = Arc::new(HttpPlace(Mutex::new(Some(Counted::new(open.clone())))));
        let in_request = place.clone();
        assert_eq!(open.load(Ordering::Acquire), 1);
        in_request.release();
        assert_eq!(open.load(Ordering::Acquire), 0, "released when admitted");
        in_request.release();
        drop(in_request);
        drop(place);
        assert_eq!(open.load(Ordering::Acquire), 0, "and never again");
        let kept = HttpPlace(Mutex::new(Some(Counted::new(open.clone()))));
        assert_eq!(open.load(Ordering::Acquire), 1);
        drop(kept);
        assert_eq!(
            open.load(Ordering::Acquire),
            0,
            "a plain connection leaves as it ends"
        );
    }

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

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    #[test]
    fn ipv6_clients_count_by_their_64_and_mapped_ipv4_as_ipv4() {
        assert_eq!(address_key(ip("203.0.113.7")), ip("203.0.113.7"));
        assert_eq!(
            address_key(ip("2001:db8:1:2:aaaa:bbbb:cccc:dddd")),
            ip("2001:db8:1:2::")
        );
        assert_eq!(
            address_key(ip("2001:db8:1:2::1")),
            address_key(ip("2001:db8:1:2:ffff::9"))
        );
        assert_ne!(
            address_key(ip("2001:db8:1:2::1")),
            address_key(ip("2001:db8:1:3::1"))
        );
        assert_eq!(address_key(ip("::ffff:198.51.100.4")), ip("198.51.100.4"));
    }

    #[test]
    fn each_address_gets_its_cap_and_its_entry_leaves_with_its_last_connection() {
        let table = PerAddress::new(2);
        let a1 = table.enter(ip("10.0.0.1")).unwrap();
        let a2 = table.enter(ip("10.0.0.1")).unwrap();
        assert!(
            table.enter(ip("10.0.0.1")).is_none(),
            "a third from one address"
        );
        let b = table
            .enter(ip("10.0.0.2"))
            .expect("another address still gets in");
        // One /64 is one client.
        let v6 = table.enter(ip("2001:db8::1")).unwrap();
        let _v6b = table.enter(ip("2001:db8::2")).unwrap();
        assert!(table.enter(ip("2001:db8::3")).is_none());
        drop(a1);
        let a3 = table
            .enter(ip("10.0.0.1"))
            .expect("a slot freed is free again");
        drop((a2, a3, b, v6, _v6b));
        assert!(table.table().is_empty(), "{:?}", table.table());
    }

    #[test]
    fn a_forwarded_link_moves_to_its_client_s_address_if_that_has_room() {
        let table = PerAddress::new(1);
        let client = table.enter(ip("10.0.0.9")).unwrap();
        let link = table.enter(ip("10.0.0.1")).unwrap();
        assert!(
            !link.move_to(ip("10.0.0.9")),
            "the client's address is full"
        );
        assert_eq!(table.table().get(&ip("10.0.0.1")), Some(&1), "unchanged");
        drop(client);
        assert!(link.move_to(ip("10.0.0.9")));
        assert_eq!(
            table.table().get(&ip("10.0.0.1")),
            None,
            "the node's slot is free"
        );
        assert!(table.enter(ip("10.0.0.1")).is_some());
        drop(link);
        assert!(table.table().is_empty());
    }
}
