//! Issue 23: budgets that cannot be turned against others. Thousands of client addresses
//! on loopback (Linux routes all of 127/8 to `lo`: a client socket bound to 127.0.x.y
//! before connecting reaches a server on 127.0.0.1 from that address), refused commands
//! that spend nothing, and the limits on the rooms an address keeps open.

use crate::common::{Client, config, start};
use serde_json::{Value, json};
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

/// The `n`th attacking address: 127.0.1.1, 127.0.1.2, … (127.0.0.x stays for the others).
fn attacker(n: usize) -> Ipv4Addr {
    Ipv4Addr::new(127, 0, 1 + (n / 250) as u8, 1 + (n % 250) as u8)
}

fn valid_settings() -> Value {
    json!({
        "kingdom": {"type": "recommended", "id": "base_2e/first_game"},
        "seats": [{"type": "open"}, {"type": "bot", "bot": "big_money"}],
    })
}

/// Settings no room can be made of: one seat.
fn invalid_settings() -> Value {
    json!({
        "kingdom": {"type": "recommended", "id": "base_2e/first_game"},
        "seats": [{"type": "open"}],
    })
}

/// Finding 1 of issue 23, as the campaign ran it: `addresses` addresses send `frames`
/// invalid `create_room`s each (no room can be made of them), `parallel` at a time.
async fn invalid_creations_from_many_addresses(
    server: SocketAddr,
    addresses: usize,
    frames: usize,
    parallel: usize,
) {
    let next = Arc::new(AtomicUsize::new(0));
    let mut workers = Vec::new();
    for _ in 0..parallel {
        let next = next.clone();
        workers.push(tokio::spawn(async move {
            loop {
                let n = next.fetch_add(1, Ordering::Relaxed);
                if n >= addresses {
                    return;
                }
                let mut c = Client::connect_from(server, IpAddr::V4(attacker(n)), "attacker").await;
                for _ in 0..frames {
                    c.command(json!({"type": "create_room", "settings": invalid_settings()}))
                        .await;
                }
                for _ in 0..frames {
                    let e = c.recv().await;
                    assert_eq!(e["type"], "error", "{e}");
                }
                let _ = c.ws.close(None).await;
            }
        }));
    }
    for w in workers {
        w.await.expect("attacker");
    }
}

/// How many of `fresh` addresses (127.0.0.1 first, then 127.0.0.2, …) are refused a
/// valid room; the first refusal is printed.
async fn fresh_addresses_refused(server: SocketAddr, fresh: u8) -> usize {
    let mut refused = 0;
    for i in 1..=fresh {
        let mut c =
            Client::connect_from(server, IpAddr::V4(Ipv4Addr::new(127, 0, 0, i)), "fresh").await;
        let r = c
            .ask(json!({"type": "create_room", "settings": valid_settings()}))
            .await;
        if r["type"] != "room_created" {
            if refused == 0 {
                eprintln!("127.0.0.{i} refused: {r}");
            }
            refused += 1;
        }
    }
    refused
}

/// Finding 1: 4,200 addresses (more than the server remembers budgets for) × 5 invalid
/// `create_room`s. Before issue 23 each refused frame spent its address's budget and the
/// full table refused every address it did not know: all 20 fresh addresses, 127.0.0.1
/// included, were refused. Now a refused command spends nothing and a full table forgets
/// its oldest address instead of refusing a new one.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn thousands_of_addresses_sending_refused_creations_do_not_shut_out_a_fresh_one() {
    let mut c = config();
    // The shared test config lifts the room limits. Five rooms a minute: five refused
    // frames empty an address's budget, which then takes the whole minute to refill, so
    // that even a slow machine fills the table before its first entries are full again.
    c.rooms_per_connection = 5;
    c.rooms_per_address = 5;
    let server = start(c).await;

    let started = std::time::Instant::now();
    invalid_creations_from_many_addresses(server, 4_200, 5, 64).await;
    let took = started.elapsed();
    let refused = fresh_addresses_refused(server, 20).await;
    eprintln!(
        "21,000 refused create_room from 4,200 addresses in {:.1} s; then {refused} of 20 fresh addresses refused",
        took.as_secs_f64()
    );
    assert_eq!(refused, 0, "fresh addresses are refused after the attack");
}

fn search_settings() -> Value {
    json!({
        "kingdom": {"type": "recommended", "id": "base_2e/first_game"},
        "seats": [{"type": "open"}, {"type": "bot", "bot": "search"}],
    })
}

/// Creates rooms from `c` until one is refused; returns how many were created and the
/// refusal.
async fn create_until_refused(c: &mut Client, settings: Value, at_most: usize) -> (usize, Value) {
    for n in 0..at_most {
        let r = c
            .ask(json!({"type": "create_room", "settings": settings.clone()}))
            .await;
        if r["type"] != "room_created" {
            return (n, r);
        }
    }
    panic!("{at_most} rooms created, none refused");
}

async fn open_rooms(server: SocketAddr) -> usize {
    let (status, body) = crate::process::http_get(server, "/api/rooms").await;
    assert_eq!(status, 200);
    let rooms: Value = serde_json::from_str(&body).expect("json");
    rooms.as_array().expect("a list").len()
}

/// Finding 5, the per-address part: rooms an address created count against
/// `--live-rooms-per-address` while they are open, not only per minute. With the
/// defaults, one address held 30 rooms at once before issue 23 (the per-minute burst; 30
/// more each minute, up to `--max-rooms`, and idle clients kept them forever); now 20,
/// and a room that closes gives its place back.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_address_keeps_at_most_its_live_rooms_open() {
    let defaults = dominion_server::Config::default();
    let mut c = config();
    c.rooms_per_connection = 1_000;
    c.rooms_per_address = defaults.rooms_per_address;
    c.live_rooms_per_address = defaults.live_rooms_per_address;
    let server = start(c).await;
    let mut a = Client::connect_from(server, IpAddr::V4(Ipv4Addr::new(127, 0, 0, 5)), "A").await;
    let (held, refused) = create_until_refused(&mut a, valid_settings(), 100).await;
    eprintln!("one address holds {held} rooms at once");
    assert_eq!(held, defaults.live_rooms_per_address);
    assert_eq!(refused["code"], "too_many_rooms", "{refused}");
    assert_eq!(
        refused["message"],
        "your address has 20 rooms open, the most it may; wait until one closes before creating another"
    );
    // Invalid settings are told so, whatever the count.
    let r = a
        .ask(json!({"type": "create_room", "settings": invalid_settings()}))
        .await;
    assert_eq!(r["code"], "invalid_settings", "{r}");
    // Another address is not concerned.
    let mut b = Client::connect_from(server, IpAddr::V4(Ipv4Addr::new(127, 0, 0, 6)), "B").await;
    let r = b
        .ask(json!({"type": "create_room", "settings": valid_settings()}))
        .await;
    assert_eq!(r["type"], "room_created", "{r}");
    assert_eq!(open_rooms(server).await, held + 1);
}

/// Finding 5: a waiting room closes `--lobby-timeout` after its creation even with its
/// player connected and live (the campaign's rooms were all still held after 75 s with a
/// 5 s abandon timeout), the player is told, and the creator's address gets its place back.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lobby_with_a_live_idle_player_closes_at_the_lobby_timeout() {
    let mut c = config();
    c.live_rooms_per_address = 1;
    c.lobby_timeout = Duration::from_secs(2);
    c.heartbeat = Duration::from_millis(200);
    c.idle_timeout = Duration::from_secs(1);
    let server = start(c).await;
    let from = Ipv4Addr::new(127, 0, 0, 7);
    let mut ann = Client::connect_from(server, IpAddr::V4(from), "Ann").await;
    let room = ann.create_room_with(valid_settings()).await;
    ann.take_seat(&room).await;
    let r = ann
        .ask(json!({"type": "create_room", "settings": valid_settings()}))
        .await;
    assert_eq!(r["code"], "too_many_rooms", "one room open at a time: {r}");

    // Ann stays connected (reading, so the server's pings are answered) and idle.
    let started = std::time::Instant::now();
    let told = ann.until(|v| v["type"] == "error").await;
    let after = started.elapsed();
    eprintln!(
        "the lobby closed {:.1} s after the player sat down",
        after.as_secs_f64()
    );
    assert_eq!(told["code"], "unknown_room", "{told}");
    assert_eq!(
        told["message"],
        "this room has closed: its game did not start within 2 s"
    );
    assert!(after > Duration::from_millis(1500), "{after:?}");
    // The room is unregistered once its close is stored, just after it told Ann.
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while open_rooms(server).await > 0 {
        assert!(
            std::time::Instant::now() < deadline,
            "the room is still listed"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // The connection is still fine, and the address may create a room again.
    let again = ann
        .ask(json!({"type": "create_room", "settings": valid_settings()}))
        .await;
    assert_eq!(again["type"], "room_created", "{again}");
}

/// Finding 3, the per-address part: rooms with searching bots count against
/// `--search-rooms-per-address` (default 2): before issue 23 one address could open 30 of
/// them a minute, 10 from each connection.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rooms_with_searching_bots_count_against_their_own_limit() {
    let defaults = dominion_server::Config::default();
    let mut c = config();
    c.search_rooms_per_address = defaults.search_rooms_per_address;
    // The bots must not play: nobody starts these games.
    let server = start(c).await;
    let from = Ipv4Addr::new(127, 0, 0, 8);
    let mut a = Client::connect_from(server, IpAddr::V4(from), "A").await;
    let (held, refused) = create_until_refused(&mut a, search_settings(), 100).await;
    eprintln!("one address opens {held} rooms with searching bots");
    assert_eq!(held, 2);
    assert_eq!(refused["code"], "too_many_rooms", "{refused}");
    assert_eq!(
        refused["message"],
        "your address has 2 rooms with searching bots (\"search\") open, the most it may; choose another bot, or wait until one of those games ends"
    );
    // A searching bot standing in for absent players counts too.
    let stand_in = json!({
        "kingdom": {"type": "recommended", "id": "base_2e/first_game"},
        "seats": [{"type": "open"}, {"type": "open"}],
        "abandoned": {"type": "bot_after", "seconds": 60, "bot": "search"},
    });
    let r = a
        .ask(json!({"type": "create_room", "settings": stand_in}))
        .await;
    assert_eq!(r["code"], "too_many_rooms", "{r}");
    // Other bots do not; nor may the host seat a searching bot later.
    let mut host = Client::connect_from(server, IpAddr::V4(from), "Host").await;
    let room = host
        .create_room_with(json!({
            "kingdom": {"type": "recommended", "id": "base_2e/first_game"},
            "seats": [{"type": "open"}, {"type": "open"}],
        }))
        .await;
    host.take_seat(&room).await;
    let r = host
        .ask(json!({"type": "set_seat", "seat": 1, "occupant": {"type": "bot", "bot": "search"}}))
        .await;
    assert_eq!(r["code"], "too_many_rooms", "{r}");
    let r = host
        .ask(json!({"type": "set_seat", "seat": 1, "occupant": {"type": "bot", "bot": "standard"}}))
        .await;
    assert_eq!(r["type"], "ack", "{r}");
    // Another address has its own.
    let mut b = Client::connect_from(server, IpAddr::V4(Ipv4Addr::new(127, 0, 0, 9)), "B").await;
    let r = b
        .ask(json!({"type": "create_room", "settings": search_settings()}))
        .await;
    assert_eq!(r["type"], "room_created", "{r}");
}
