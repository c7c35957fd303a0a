//! Client addresses behind a proxy (issue 24), on real sockets from several loopback
//! addresses (127.0.0.x: Linux routes all of 127/8 to lo): `X-Forwarded-For` is ignored
//! from a peer that is not a trusted proxy, so no client writes its way out of a
//! per-address limit; from a trusted proxy its rightmost untrusted hop is the client,
//! for the room budget, the connection cap and, in a cluster, on the room's node.
//! Through the shipped nginx config: `proxy.rs`.

use crate::common::{Client, config, start};
use crate::connections::tcp_from;
use serde_json::{Value, json};
use std::net::SocketAddr;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;

/// A WebSocket to `addr` from 127.0.0.`host`, saying `X-Forwarded-For: xff` when given,
/// greeted; `Err` with the HTTP status when the upgrade is refused.
pub(crate) async fn ws_via(
    host: u8,
    addr: SocketAddr,
    xff: Option<&str>,
    name: &str,
) -> Result<Client, String> {
    let tcp = tcp_from(host, addr)
        .await
        .map_err(|e| format!("connect: {e}"))?;
    let mut request = format!("ws://{addr}/ws").into_client_request().unwrap();
    if let Some(xff) = xff {
        request
            .headers_mut()
            .insert("X-Forwarded-For", HeaderValue::from_str(xff).unwrap());
    }
    let (ws, _) =
        tokio_tungstenite::client_async(request, tokio_tungstenite::MaybeTlsStream::Plain(tcp))
            .await
            .map_err(|e| match e {
                tokio_tungstenite::tungstenite::Error::Http(r) => {
                    format!("HTTP {}", r.status().as_u16())
                }
                e => format!("upgrade: {e}"),
            })?;
    let mut c = Client::over(ws, name);
    c.send(json!({"type": "hello", "protocol": 1})).await;
    match c.recv_or_closed().await {
        Ok(v) if v["type"] == "welcome" => Ok(c),
        other => Err(format!("no welcome: {other:?}")),
    }
}

/// `create_room` (two open seats): the answer, `room_created` or an error.
pub(crate) async fn try_create(c: &mut Client) -> Value {
    c.ask(json!({"type": "create_room", "settings": {
        "kingdom": {"type": "recommended", "id": "base_2e/first_game"},
        "seats": [{"type": "open"}, {"type": "open"}],
    }}))
    .await
}

/// Whether a `create_room` from 127.0.0.`host`, saying `xff`, is served.
async fn creates(addr: SocketAddr, host: u8, xff: Option<&str>) -> bool {
    let mut c = ws_via(host, addr, xff, "P").await.expect("connected");
    let answer = try_create(&mut c).await;
    match answer["type"].as_str() {
        Some("room_created") => true,
        _ => {
            assert_eq!(answer["code"], "too_many_rooms", "{answer}");
            false
        }
    }
}

/// A server allowing one room a minute per client address, trusting `trusted`.
async fn one_room_each(trusted: &[&str]) -> SocketAddr {
    let mut c = config();
    c.rooms_per_address = 1;
    c.trusted_proxies = dominion_server::config::parse_trusted_proxies(&trusted.join(",")).unwrap();
    start(c).await
}

/// From a peer that is not a trusted proxy, `X-Forwarded-For` is whatever the client
/// wrote: ignored. A client naming a fresh address each time still has its own one
/// room — with no proxies trusted (the default), and with some that it is not.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_header_from_a_peer_that_is_not_trusted_buys_no_fresh_budget() {
    for trusted in [&[][..], &["127.0.0.1", "10.0.0.0/8"][..]] {
        let addr = one_room_each(trusted).await;
        assert!(creates(addr, 2, Some("203.0.113.1")).await);
        assert!(
            !creates(addr, 2, Some("203.0.113.2")).await,
            "{trusted:?}: a spoofed address bought a second room"
        );
        assert!(!creates(addr, 2, None).await, "{trusted:?}");
        // Naming a trusted proxy as the last hop changes nothing either.
        assert!(!creates(addr, 2, Some("203.0.113.3, 127.0.0.1")).await);
        assert!(creates(addr, 3, None).await, "another address has its own");
    }
}

/// Two players behind a trusted proxy each get their own per-address room budget:
/// player A's second room is refused while player B's first is served — and a request
/// of the proxy's own (no header) counts under the proxy.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn behind_a_trusted_proxy_each_player_has_their_own_budget() {
    let addr = one_room_each(&["127.0.0.1"]).await;
    assert!(creates(addr, 1, Some("203.0.113.1")).await, "A's first");
    assert!(!creates(addr, 1, Some("203.0.113.1")).await, "A's second");
    assert!(creates(addr, 1, Some("203.0.113.2")).await, "B's first");
    assert!(
        creates(addr, 1, Some("2001:db8:1:2::1")).await,
        "C, over IPv6"
    );
    assert!(
        !creates(addr, 1, Some("[2001:db8:1:2::ffff]:4711")).await,
        "C again: another address of C's /64"
    );
    assert!(creates(addr, 1, None).await, "the proxy's own request");
    assert!(
        !creates(addr, 1, Some("127.0.0.1")).await,
        "every hop trusted"
    );
}

/// The rightmost untrusted hop is the client: an address the client put on the left
/// (a spoof) is never used, and the proxies' own hops on the right are skipped.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_rightmost_untrusted_hop_is_the_client_whatever_the_client_wrote_left_of_it() {
    // 127.0.0.1 is the edge proxy; 10.0.0.0/8 stands for proxies between.
    let addr = one_room_each(&["127.0.0.1", "10.0.0.0/8"]).await;
    assert!(
        creates(addr, 1, Some("203.0.113.1, 10.0.0.5")).await,
        "A's first"
    );
    // A again, having written a fresh address (and a trusted one) on the left.
    for spoofed in [
        "198.51.100.9, 203.0.113.1, 10.0.0.7",
        "10.0.0.1, 203.0.113.1",
        "unknown, 203.0.113.1, 10.0.0.5",
    ] {
        assert!(
            !creates(addr, 1, Some(spoofed)).await,
            "the spoof in {spoofed:?} bought A a room"
        );
    }
    assert!(
        creates(addr, 1, Some("203.0.113.1, 203.0.113.2")).await,
        "B"
    );
}

/// The connection cap behind a trusted proxy: the proxy's connections are not capped as
/// one address's (it holds more than the cap), each request counts under its client,
/// and a client at its cap gets the 503 while another still gets in.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_trusted_proxy_s_connections_count_under_each_client() {
    let mut c = config();
    c.connections_per_address = 2;
    c.trusted_proxies = dominion_server::config::parse_trusted_proxies("127.0.0.1").unwrap();
    let addr = start(c).await;
    let mut held = Vec::new();
    for xff in ["203.0.113.1", "203.0.113.1", "203.0.113.2", "203.0.113.2"] {
        held.push(ws_via(1, addr, Some(xff), "P").await.expect(xff));
    }
    // The proxy itself idles on more connections than the cap.
    let mut idle = Vec::new();
    for _ in 0..3 {
        idle.push(tcp_from(1, addr).await.unwrap());
    }
    let third = ws_via(1, addr, Some("203.0.113.1"), "A3").await;
    assert_eq!(third.err().as_deref(), Some("HTTP 503"), "A's third");
    let mut other = ws_via(1, addr, Some("203.0.113.3"), "C")
        .await
        .expect("another client still gets in");
    assert_eq!(other.ask(json!({"type": "ping"})).await["type"], "pong");
    // Directly, as an untrusted peer, the header counts for nothing: 127.0.0.2's own cap.
    let _d1 = ws_via(2, addr, Some("203.0.113.4"), "D1").await.unwrap();
    let _d2 = ws_via(2, addr, Some("203.0.113.5"), "D2").await.unwrap();
    let d3 = ws_via(2, addr, Some("203.0.113.6"), "D3").await;
    assert!(d3.is_err(), "127.0.0.2's third connection was served");
    // A's connection closed frees its place.
    let mut a = held.remove(0);
    a.ws.close(None).await.unwrap();
    let _ = a.closed().await;
    let mut again = None;
    for _ in 0..500 {
        if let Ok(c) = ws_via(1, addr, Some("203.0.113.1"), "A").await {
            again = Some(c);
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert!(again.is_some(), "A's place came back");
}

/// In a cluster, a node that got its client from a trusted proxy forwards that client's
/// address, and the room's node counts the client under it: two players behind the
/// proxy, both on the node that does not run the room, each create a room through the
/// link on a node allowing one per address (both would be 127.0.0.1 otherwise), and
/// the first one's second is refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_forwards_the_client_a_trusted_proxy_named() {
    let mut env = crate::cluster::Backends::start();
    let trust = ["--trusted-proxies", "127.0.0.1"];
    let owner = env
        .node_with("n0", &[&trust[..], &["--rooms-per-address", "1"]].concat())
        .await;
    let other = env.node_with("n1", &trust).await;
    let mut host = ws_via(2, owner.addr, None, "Host").await.unwrap();
    let room = try_create(&mut host).await["room"]["id"]
        .as_str()
        .expect("a room")
        .to_string();
    crate::cluster::wait_listed(other.addr, &[&room]).await;
    let mut answers = Vec::new();
    for xff in ["203.0.113.1", "203.0.113.2", "198.51.100.7, 203.0.113.1"] {
        let mut c = ws_via(1, other.addr, Some(xff), "Fwd").await.unwrap();
        let watching = c.ask(json!({"type": "spectate", "room": room})).await;
        assert_eq!(watching["type"], "spectating", "{watching}");
        // Through the link: the room's node answers, under the address it counts.
        let answer = try_create(&mut c).await;
        eprintln!("{xff} through n1: {answer}");
        answers.push(answer["type"] == "room_created");
    }
    assert_eq!(answers, [true, true, false]);
}

/// The logs name the client as found: the address a trusted proxy named (not the
/// proxy's, not the client's own spoof), or an untrusted peer's own; the start says
/// whom it believes; and a bad `DOMINION_TRUSTED_PROXIES` stops the start, naming it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn logs_name_the_client_found_and_a_bad_value_stops_the_start() {
    use crate::process::{ServerProcess, server_command};
    let dir = tempfile::tempdir().unwrap();
    let server = ServerProcess::start_with(
        dir.path(),
        &[
            "--trusted-proxies",
            "127.0.0.1",
            "--log",
            "dominion_server=debug",
        ],
    )
    .await;
    let _a = ws_via(1, server.addr, Some("198.51.100.66, 203.0.113.7"), "A")
        .await
        .unwrap();
    let _b = ws_via(2, server.addr, Some("203.0.113.8"), "B")
        .await
        .unwrap();
    let mut seen = String::new();
    for _ in 0..500 {
        seen = server.output_tail(400);
        if seen.contains("client=203.0.113.7") && seen.contains("client=127.0.0.2") {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert!(
        seen.contains("believing X-Forwarded-For from 127.0.0.1/32"),
        "{seen}"
    );
    let connected: Vec<&str> = seen.lines().filter(|l| l.contains("connected")).collect();
    assert!(
        connected.iter().any(|l| l.contains("client=203.0.113.7")),
        "{seen}"
    );
    assert!(
        connected.iter().any(|l| l.contains("client=127.0.0.2")),
        "{seen}"
    );
    for never in ["198.51.100.66", "203.0.113.8"] {
        assert!(!seen.contains(never), "{never} was believed:\n{seen}");
    }

    let out = server_command(&[("DOMINION_TRUSTED_PROXIES", "127.0.0.1,10.0.0.0/33")])
        .arg("healthcheck")
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{said}");
    assert!(
        said.contains("--trusted-proxies") && said.contains("10.0.0.0/33"),
        "{said}"
    );
}
