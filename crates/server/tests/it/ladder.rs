//! The rated bot ladder over real sockets, on SQLite and PostgreSQL (issue 25,
//! docs/protocol.md "The bot ladder"): two bot accounts in the `bots` queue are proposed
//! to each other, not to a house bot; one left alone gets one of our bots after
//! `--ladder-house-wait`, plays it in a rated room and both are rated in pool `bots`,
//! the house bot under its own account, shown on the leaderboard as a bot. The house
//! accounts' names cannot be registered or signed in to, and the house bot's seat does
//! not change. (A person's account is refused the `bots` pool:
//! `automatch::guests_and_the_wrong_accounts_for_a_pool_are_refused`.)
//!
//! The python example's ladder run (`bot.py --ladder 20`) is `python_bot`'s.

use crate::accounts::{connect_with_token, register, request, server, with_cookie};
use crate::common::Client;
use crate::process::{Backend, TestStore, on_both_backends};
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::time::Duration;

on_both_backends!(bot_accounts_meet_each_other_and_a_lone_one_plays_a_rated_house_bot,);

/// Registers `name`, gives it an API token and makes it a bot account: the token.
pub(crate) async fn bot_account(addr: SocketAddr, name: &str) -> String {
    let made = register(addr, name, &format!("{name}'s long password")).await;
    assert_eq!(made.status, 201, "{}", made.body);
    let cookie = made.cookie();
    let token = request(
        addr,
        "POST",
        "/api/me/tokens",
        &with_cookie(addr, &cookie),
        Some(json!({"label": "ladder"})),
    )
    .await;
    assert_eq!(token.status, 201, "{}", token.body);
    let bot = request(
        addr,
        "POST",
        "/api/me/bot",
        &with_cookie(addr, &cookie),
        None,
    )
    .await;
    assert_eq!(bot.status, 204, "{}", bot.body);
    token.json()["token"].as_str().unwrap().to_string()
}

/// A WebSocket signed in with `token`, named `name`.
async fn with_token(addr: SocketAddr, token: &str, name: &str) -> Client {
    let (mut c, welcome) = connect_with_token(addr, token).await;
    c.name = name.to_string();
    assert_eq!(welcome["account"]["name"], name, "{welcome}");
    assert_eq!(welcome["account"]["bot"], true, "{welcome}");
    c
}

async fn find_bots(c: &mut Client) {
    c.command(json!({"type": "find_match", "pool": "bots"}))
        .await;
    let queued = c.recv().await;
    assert_eq!(queued["type"], "match_queued", "{queued}");
    assert_eq!(queued["pool"], "bots");
}

async fn proposal(c: &mut Client) -> Value {
    let p = c
        .until(|v| !matches!(v["type"].as_str(), Some("match_queued" | "ack")))
        .await;
    assert_eq!(p["type"], "match_proposed", "{}: {p}", c.name);
    assert_eq!(p["pool"], "bots");
    p
}

async fn bot_accounts_meet_each_other_and_a_lone_one_plays_a_rated_house_bot(backend: Backend) {
    let store = TestStore::new(backend);
    let addr = server(&store, |c| {
        c.ladder_house_wait = Duration::from_secs(2);
        c.ladder_search_playouts = 20;
    })
    .await;
    // The house accounts exist, as bots nobody can register or sign in to.
    for name in ["house-easy", "House-Search"] {
        let taken = register(addr, name, "a long enough password").await;
        assert_eq!(
            (taken.status, taken.json()["code"].clone()),
            (409, json!("name_taken")),
            "{}",
            taken.body
        );
    }
    let sign_in = request(
        addr,
        "POST",
        "/api/session",
        &[("Origin", format!("http://{addr}"))],
        Some(json!({"name": "house-easy", "password": "!house-bot"})),
    )
    .await;
    assert_eq!(
        sign_in.json()["code"],
        "wrong_credentials",
        "{}",
        sign_in.body
    );
    let profile = request(addr, "GET", "/api/players/house-search", &[], None).await;
    assert_eq!(profile.status, 200, "{}", profile.body);
    assert_eq!(profile.json()["bot"], true, "{}", profile.body);

    let robo_token = bot_account(addr, "Robo").await;
    let tron_token = bot_account(addr, "Tron").await;
    let mut robo = with_token(addr, &robo_token, "Robo").await;
    let mut tron = with_token(addr, &tron_token, "Tron").await;
    find_bots(&mut robo).await;
    find_bots(&mut tron).await;
    // Two bot accounts: each other, not a house bot.
    let pr = proposal(&mut robo).await;
    let pt = proposal(&mut tron).await;
    assert_eq!(pr["match"], pt["match"]);
    assert_eq!(pr["opponents"], json!([{"name": "Tron", "level": 19}]));
    assert_eq!(pt["opponents"], json!([{"name": "Robo", "level": 19}]));
    // Tron declines: Robo is back in the queue, alone — and after the wait it is
    // proposed the first house bot of its rotation.
    let ack = tron
        .ask(json!({"type": "decline_match", "match": pt["match"]}))
        .await;
    assert_eq!(ack["type"], "ack", "{ack}");
    let back = robo.until(|v| v["type"] == "match_cancelled").await;
    assert_eq!(back["reason"], "requeued", "{back}");
    let house = proposal(&mut robo).await;
    assert_eq!(
        house["opponents"],
        json!([{"name": "house-easy", "level": 19}]),
        "{house}"
    );
    let ack = robo
        .ask(json!({"type": "accept_match", "match": house["match"]}))
        .await;
    assert_eq!(ack["type"], "ack", "{ack}");
    let found = robo.until(|v| v["type"] == "match_found").await;
    let room = found["room"].as_str().unwrap().to_string();
    let seated = robo
        .ask(json!({"type": "resume", "room": room, "token": found["token"]}))
        .await;
    assert_eq!(seated["type"], "seated", "{seated}");
    let mine = found["seat"].as_u64().unwrap();
    let theirs = 1 - mine;
    // The room: rated, the house bot in the other seat, which does not change.
    let info = robo.until(|v| v["type"] == "room").await;
    let settings = &info["room"]["settings"];
    assert_eq!(settings["rated"], true, "{info}");
    assert_eq!(
        settings["seats"][theirs as usize],
        json!({"type": "bot", "bot": "easy"}),
        "{info}"
    );
    assert_eq!(info["room"]["host"], mine, "{info}");
    let refused = robo
        .ask(json!({"type": "set_seat", "seat": theirs, "occupant": {"type": "bot", "bot": "big_money"}}))
        .await;
    assert_eq!(refused["code"], "seat_unavailable", "{refused}");

    robo.start().await;
    let over = robo.play_to_end(Duration::ZERO).await;
    let changed = robo.until(|v| v["type"] == "rating_changed").await;
    let changes = changed["changes"].as_array().unwrap();
    assert_eq!(changes.len(), 2, "{changed}");
    for c in changes {
        assert_eq!(c["pool"], "bots", "{changed}");
    }
    let robo_won = over["scores"]
        .as_array()
        .unwrap()
        .iter()
        .any(|s| s["seat"] == mine && s["winner"] == true);
    let robo_change = changes.iter().find(|c| c["seat"] == mine).unwrap();
    assert_eq!(robo_change["name"], "Robo");
    let up = robo_change["rating_after"].as_f64() > robo_change["rating_before"].as_f64();
    let tie = over["scores"]
        .as_array()
        .unwrap()
        .iter()
        .all(|s| s["winner"] == true);
    if !tie {
        assert_eq!(up, robo_won, "{over}\n{changed}");
    }

    // The leaderboard of pool `bots`: Robo and house-easy, both bots.
    let board = request(addr, "GET", "/api/leaderboard?pool=bots", &[], None).await;
    assert_eq!(board.status, 200, "{}", board.body);
    let mut names: Vec<(String, bool, u64)> = board.json()["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["name"].as_str().unwrap().to_string(),
                r["bot"].as_bool().unwrap(),
                r["games"].as_u64().unwrap(),
            )
        })
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            ("Robo".to_string(), true, 1),
            ("house-easy".into(), true, 1)
        ],
        "{}",
        board.body
    );
    // The house bot's profile: a bot, with its `bots` rating and the game.
    let profile = request(addr, "GET", "/api/players/house-easy", &[], None).await;
    let p = profile.json();
    assert_eq!(
        (p["bot"].clone(), p["games"].clone()),
        (json!(true), json!(1)),
        "{p}"
    );
    assert_eq!(p["ratings"][0]["pool"], "bots", "{p}");
    assert_eq!(p["ratings"][0]["games"], 1, "{p}");
    no_one_rated_in_the_players_pools(addr).await;
}

/// On a cluster the ladder's queue is the shared one (`automatch_cluster`): a bot
/// account on the node that does not lead is still offered a house bot after the wait,
/// by whichever node leads, and its rated game is played through its own node.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_a_cluster_a_lone_bot_account_gets_a_house_bot_from_the_leading_node() {
    let (_env, n0, n1) = crate::accounts::two_nodes(&[
        "--ladder-house-wait",
        "300ms",
        "--ladder-search-playouts",
        "20",
    ])
    .await;
    let token = bot_account(n0.addr, "Robo").await;
    for node in [&n0, &n1] {
        let mut robo = with_token(node.addr, &token, "Robo").await;
        find_bots(&mut robo).await;
        let house = proposal(&mut robo).await;
        let name = house["opponents"][0]["name"].as_str().unwrap().to_string();
        assert!(name.starts_with("house-"), "{house}");
        let ack = robo
            .ask(json!({"type": "accept_match", "match": house["match"]}))
            .await;
        assert_eq!(ack["type"], "ack", "{ack}");
        let found = robo.until(|v| v["type"] == "match_found").await;
        let seated = robo
            .ask(json!({"type": "resume", "room": found["room"], "token": found["token"]}))
            .await;
        assert_eq!(seated["type"], "seated", "{seated}");
        robo.start().await;
        robo.play_to_end(Duration::ZERO).await;
        let changed = robo.until(|v| v["type"] == "rating_changed").await;
        let names: Vec<&str> = changed["changes"]
            .as_array()
            .unwrap()
            .iter()
            .inspect(|c| assert_eq!(c["pool"], "bots", "{changed}"))
            .map(|c| c["name"].as_str().unwrap())
            .collect();
        // The house bot's seat is named as any server bot's seat.
        let seat_name = format!("{} (bot)", name.trim_start_matches("house-"));
        assert!(
            names.contains(&"Robo") && names.contains(&seat_name.as_str()),
            "{changed}"
        );
        let _ = robo.ask(json!({"type": "leave"})).await;
    }
}

/// Ladder games rate no one in the players' pools: both leaderboards are empty.
pub(crate) async fn no_one_rated_in_the_players_pools(addr: SocketAddr) {
    for pool in ["2p", "3-4p"] {
        let other = request(
            addr,
            "GET",
            &format!("/api/leaderboard?pool={pool}"),
            &[],
            None,
        )
        .await;
        assert_eq!(other.json()["total"], 0, "{}", other.body);
    }
}
