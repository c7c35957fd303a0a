//! Friends across the nodes of a cluster (issue 25): who is online and `invite` reach
//! an account signed in on another node, through the presence the nodes keep in Redis
//! (`cluster::presence`).

use crate::accounts::{register, request, signed_in, two_nodes, with_cookie};
use crate::common::Client;
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::time::Duration;

/// Ann's friends list as node `addr` answers it.
async fn friends(addr: SocketAddr, cookie: &str) -> Value {
    let got = request(
        addr,
        "GET",
        "/api/me/follows",
        &with_cookie(addr, cookie),
        None,
    )
    .await;
    assert_eq!(got.status, 200, "{}", got.body);
    got.json()
}

/// Asks until `pred` holds of Ann's friends list (the presence is written every few
/// seconds); gives up after a minute, as a hang stop.
async fn friends_until(addr: SocketAddr, cookie: &str, pred: impl Fn(&Value) -> bool) -> Value {
    for _ in 0..600 {
        let list = friends(addr, cookie).await;
        if pred(&list) {
            return list;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!(
        "the friends list never became as expected: {}",
        friends(addr, cookie).await
    )
}

async fn sit_at_new_table(c: &mut Client) -> String {
    let room = c
        .create_room(json!([{"type": "open"}, {"type": "open"}]))
        .await;
    let seated = c.ask(json!({"type": "take_seat", "room": room})).await;
    assert_eq!(seated["type"], "seated", "{seated}");
    room
}

/// Ann at node n0 follows Bea, signed in at node n1: Ann sees Bea online and at her open
/// table, invites her, and Bea's connection at n1 receives `invited`; once Bea leaves,
/// Ann sees her offline and an invitation is refused as `player_offline`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(
    not(all(have_postgres, have_redis)),
    ignore = "needs PostgreSQL and Redis — run scripts/setup-test-deps.sh"
)]
async fn a_friend_on_another_node_is_seen_online_and_invited() {
    let (_env, n0, n1) = two_nodes(&[]).await;
    let ann = register(n0.addr, "Ann", "ann's password").await.cookie();
    let bea = register(n1.addr, "Bea", "bea's password").await.cookie();
    let follow = request(
        n0.addr,
        "PUT",
        "/api/me/follows/bea",
        &with_cookie(n0.addr, &ann),
        None,
    )
    .await;
    assert_eq!(follow.status, 204, "{}", follow.body);
    assert_eq!(
        friends(n0.addr, &ann).await,
        json!([{"name": "Bea", "bot": false, "online": false, "tables": []}])
    );

    // Bea signs in at n1 and sits at a table there.
    let mut bea_ws = signed_in(n1.addr, &bea, "Bea").await;
    let beas_room = sit_at_new_table(&mut bea_ws).await;
    let list = friends_until(n0.addr, &ann, |l| {
        l[0]["online"] == true && l[0]["tables"][0]["room"] == beas_room.as_str()
    })
    .await;
    assert_eq!(list.as_array().unwrap().len(), 1, "{list}");

    // Ann, at her own table at n0, invites Bea: Bea's connection at n1 hears of it.
    let mut ann_ws = signed_in(n0.addr, &ann, "Ann").await;
    let anns_room = sit_at_new_table(&mut ann_ws).await;
    let ack = ann_ws
        .ask(json!({"type": "invite", "room": anns_room, "name": "Bea"}))
        .await;
    assert_eq!(ack["type"], "ack", "{ack}");
    let invited = bea_ws.until(|v| v["type"] == "invited").await;
    assert_eq!(
        invited,
        json!({"type": "invited", "from": "Ann", "room": anns_room})
    );

    // Bea goes away: offline at n0 within a refresh, and not invited any more.
    drop(bea_ws);
    friends_until(n0.addr, &ann, |l| l[0]["online"] == false).await;
    let refused = ann_ws
        .ask(json!({"type": "invite", "room": anns_room, "name": "Bea"}))
        .await;
    assert_eq!(refused["code"], "player_offline", "{refused}");
}
