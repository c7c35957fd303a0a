//! Automatch over real sockets (issue 25, docs/protocol.md "Automatch"): signed-in
//! players queue, are proposed to each other, accept, and find themselves seated in the
//! same rated room, whose game then starts; a decline or a silence puts the other player
//! back at the front of the queue, where a third finds them; blocked pairs are never
//! proposed; guests and the wrong accounts for a pool are refused; a `3-4p` table forms.
//! The accept timeout is shortened with `--match-accept-timeout` where a test waits
//! for it; nothing is timed.

use crate::accounts::{register, request, signed_in, with_cookie};
use crate::common::{Client, config, start};
use dominion_server::Config;
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::time::Duration;

async fn server(adjust: impl FnOnce(&mut Config)) -> SocketAddr {
    let mut c = config();
    c.argon2_memory_kib = 256;
    c.argon2_iterations = 1;
    adjust(&mut c);
    start(c).await
}

/// Registers `name` and opens a WebSocket signed in as it (the session cookie).
async fn player(addr: SocketAddr, name: &str) -> (Client, String) {
    let answer = register(addr, name, &format!("{name}'s long password")).await;
    assert_eq!(answer.status, 201, "{}", answer.body);
    let cookie = answer.cookie();
    let c = signed_in(addr, &cookie, name).await;
    (c, cookie)
}

fn is(kind: &'static str) -> impl Fn(&Value) -> bool {
    move |v: &Value| v["type"] == kind
}

/// Queues `c` in `pool`: the answer is `match_queued`.
async fn find(c: &mut Client, pool: &str) {
    c.command(json!({"type": "find_match", "pool": pool})).await;
    let queued = c.recv().await;
    assert_eq!(queued["type"], "match_queued", "{queued}");
    assert_eq!(queued["pool"], pool);
}

/// Waits for this client's proposal; returns it.
async fn proposal(c: &mut Client) -> Value {
    let p = c.until(|v| v["type"] != "match_queued").await;
    assert_eq!(p["type"], "match_proposed", "{}: {p}", c.name);
    assert_eq!(p["accept_within_ms"], 20_000, "the default");
    p
}

async fn accept(c: &mut Client, p: &Value) {
    let ack = c
        .ask(json!({"type": "accept_match", "match": p["match"]}))
        .await;
    assert_eq!(ack["type"], "ack", "{ack}");
}

/// Waits for `match_found`, resumes the seat with its token: the room's id.
async fn enter(c: &mut Client, p: &Value) -> String {
    let found = c.until(|v| v["type"] != "match_queued").await;
    assert_eq!(found["type"], "match_found", "{}: {found}", c.name);
    assert_eq!(found["match"], p["match"]);
    let room = found["room"].as_str().unwrap().to_string();
    let seated = c
        .ask(json!({"type": "resume", "room": room, "token": found["token"]}))
        .await;
    assert_eq!(seated["type"], "seated", "{seated}");
    assert_eq!(seated["seat"], found["seat"]);
    room
}

fn opponents(p: &Value) -> Vec<String> {
    p["opponents"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["name"].as_str().unwrap().to_string())
        .collect()
}

#[tokio::test]
async fn two_players_are_matched_seated_in_a_rated_room_and_play() {
    let addr = server(|_| {}).await;
    let (mut ann, ann_cookie) = player(addr, "Ann").await;
    let (mut bob, bob_cookie) = player(addr, "Bob").await;
    // Their card preferences: the kingdom keeps out every ban (and here, with plenty of
    // cards left, every dislike), and the room's name says so.
    let bans = ["witch", "chapel", "militia"];
    for (cookie, body) in [
        (
            &ann_cookie,
            json!({"bans": ["witch", "chapel"], "dislikes": ["moat"]}),
        ),
        (&bob_cookie, json!({"bans": ["militia"]})),
    ] {
        let put = request(
            addr,
            "PUT",
            "/api/me/cards",
            &with_cookie(addr, cookie),
            Some(body),
        )
        .await;
        assert_eq!(put.status, 200, "{}", put.body);
    }
    find(&mut ann, "2p").await;
    find(&mut bob, "2p").await;
    let pa = proposal(&mut ann).await;
    let pb = proposal(&mut bob).await;
    assert_eq!(pa["match"], pb["match"]);
    assert_eq!(pa["pool"], "2p");
    assert_eq!(opponents(&pa), ["Bob"]);
    assert_eq!(opponents(&pb), ["Ann"]);
    assert_eq!(
        pa["opponents"][0]["level"], 19,
        "a new player's level, rounded down"
    );
    accept(&mut ann, &pa).await;
    accept(&mut bob, &pb).await;
    let ra = enter(&mut ann, &pa).await;
    let rb = enter(&mut bob, &pb).await;
    assert_eq!(ra, rb, "the same room");
    // The room: rated, an explicit kingdom of ten, both seats the accounts.
    let room = ann
        .until(|v| {
            v["type"] == "room"
                && v["room"]["seats"][1]["occupant"]["connected"] == true
                && v["room"]["seats"][0]["occupant"]["connected"] == true
        })
        .await;
    let settings = &room["room"]["settings"];
    assert_eq!(settings["rated"], true, "{room}");
    assert_eq!(settings["kingdom"]["type"], "cards");
    let cards = settings["kingdom"]["cards"].as_array().unwrap();
    assert_eq!(cards.len(), 10);
    for card in bans.iter().chain(&["moat"]) {
        assert!(!cards.contains(&json!(card)), "{card} in {cards:?}");
    }
    let name = settings["name"].as_str().unwrap_or_default();
    assert!(name.contains("banned"), "{name}");
    let mut names: Vec<&str> = room["room"]["seats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["occupant"]["name"].as_str().unwrap())
        .collect();
    names.sort();
    assert_eq!(names, ["Ann", "Bob"]);
    // The game starts and a player is asked to move.
    ann.start().await;
    let first = tokio::select! {
        d = ann.until(is("decision")) => d,
        d = bob.until(is("decision")) => d,
    };
    assert_eq!(first["prompt"]["kind"], "action_phase", "{first}");
}

#[tokio::test]
async fn a_decline_puts_the_other_first_in_the_queue_where_a_third_finds_them() {
    let addr = server(|_| {}).await;
    let (mut ann, _) = player(addr, "Cara").await;
    let (mut bob, _) = player(addr, "Dan").await;
    find(&mut ann, "practice").await;
    find(&mut bob, "practice").await;
    let pa = proposal(&mut ann).await;
    let pb = proposal(&mut bob).await;
    let id = bob
        .command(json!({"type": "decline_match", "match": pb["match"]}))
        .await;
    assert_eq!(bob.answer(id).await["type"], "ack");
    let out = bob.until(is("match_cancelled")).await;
    assert_eq!(out["reason"], "declined");
    let back = ann.until(is("match_cancelled")).await;
    assert_eq!(back["reason"], "requeued");
    // Accepting the dead proposal: unknown.
    let late = ann
        .ask(json!({"type": "accept_match", "match": pa["match"]}))
        .await;
    assert_eq!(late["code"], "unknown_match", "{late}");
    // A third player is matched with Cara, not with Dan (out of the queue).
    let (mut eve, _) = player(addr, "Eve").await;
    find(&mut eve, "practice").await;
    let pe = proposal(&mut eve).await;
    assert_eq!(opponents(&pe), ["Cara"]);
    let pa = proposal(&mut ann).await;
    assert_eq!(opponents(&pa), ["Eve"]);
    accept(&mut ann, &pa).await;
    accept(&mut eve, &pe).await;
    let ra = enter(&mut ann, &pa).await;
    assert_eq!(ra, enter(&mut eve, &pe).await);
    // Practice is unrated: the room's settings leave `rated` out.
    let room = ann.until(is("room")).await;
    assert!(room["room"]["settings"].get("rated").is_none(), "{room}");
}

#[tokio::test]
async fn a_proposal_nobody_answers_in_time_times_out_and_who_accepted_is_requeued() {
    let addr = server(|c| c.match_accept_timeout = Duration::from_secs(1)).await;
    let (mut ann, _) = player(addr, "Finn").await;
    let (mut bob, _) = player(addr, "Gail").await;
    find(&mut ann, "2p").await;
    find(&mut bob, "2p").await;
    let pa = ann.until(is("match_proposed")).await;
    assert_eq!(pa["accept_within_ms"], 1000);
    bob.until(is("match_proposed")).await;
    accept(&mut ann, &pa).await;
    let silent = bob.until(is("match_cancelled")).await;
    assert_eq!(silent["reason"], "timeout");
    let back = ann.until(is("match_cancelled")).await;
    assert_eq!(back["reason"], "requeued");
    // Finn waits on: cancel takes him out.
    let id = ann.command(json!({"type": "cancel_match"})).await;
    assert_eq!(ann.answer(id).await["type"], "ack");
    assert_eq!(
        ann.until(is("match_cancelled")).await["reason"],
        "cancelled"
    );
}

#[tokio::test]
async fn blocked_players_are_never_proposed_to_each_other_and_a_closed_connection_leaves() {
    let addr = server(|_| {}).await;
    let (mut ann, ann_cookie) = player(addr, "Hal").await;
    let (mut bob, _) = player(addr, "Ida").await;
    let blocked = request(
        addr,
        "PUT",
        "/api/me/blocks/Ida",
        &with_cookie(addr, &ann_cookie),
        None,
    )
    .await;
    assert_eq!(blocked.status, 204, "{}", blocked.body);
    // Someone queues and leaves: never proposed to anyone.
    let (mut gone, _) = player(addr, "Gone").await;
    find(&mut gone, "2p").await;
    // Closed cleanly: the server has let it go (and the queue heard of it, first
    // thing) before its close frame comes back.
    gone.ws.close(None).await.unwrap();
    gone.closed().await;
    find(&mut ann, "2p").await;
    find(&mut bob, "2p").await;
    let (mut jo, _) = player(addr, "Jo").await;
    find(&mut jo, "2p").await;
    // Hal, first in the queue, gets Jo: Ida (blocked) is skipped.
    let pa = proposal(&mut ann).await;
    assert_eq!(opponents(&pa), ["Jo"]);
    assert_eq!(opponents(&proposal(&mut jo).await), ["Hal"]);
    // Ida was never proposed anything: all she heard is her queue status.
    let id = bob.command(json!({"type": "cancel_match"})).await;
    bob.answer(id).await;
    let out = bob.until(|v| v["type"] != "match_queued").await;
    assert_eq!(out["reason"], "cancelled", "{out}");
    assert!(
        bob.frames.iter().all(|f| !f.contains("match_proposed")),
        "{:?}",
        bob.frames
    );
}

#[tokio::test]
async fn guests_and_the_wrong_accounts_for_a_pool_are_refused() {
    let addr = server(|_| {}).await;
    let mut guest = Client::connect(addr, "Guest").await;
    for cmd in [
        json!({"type": "find_match", "pool": "2p"}),
        json!({"type": "cancel_match"}),
        json!({"type": "accept_match", "match": "m1"}),
    ] {
        let refused = guest.ask(cmd).await;
        assert_eq!(refused["code"], "sign_in_required", "{refused}");
    }
    let (mut kim, _) = player(addr, "Kim").await;
    let refused = kim.ask(json!({"type": "find_match", "pool": "bots"})).await;
    assert_eq!(refused["code"], "bot_accounts_only", "{refused}");
    let refused = kim
        .ask(json!({"type": "find_match", "pool": "2p", "sets": ["base", "base"]}))
        .await;
    assert_eq!(refused["code"], "invalid_settings", "{refused}");
    let refused = kim
        .ask(json!({"type": "decline_match", "match": "nonsense"}))
        .await;
    assert_eq!(refused["code"], "unknown_match", "{refused}");
    // In a room: leave first.
    let room = kim
        .create_room(json!([{"type": "open"}, {"type": "open"}]))
        .await;
    kim.take_seat(&room).await;
    let refused = kim.ask(json!({"type": "find_match", "pool": "2p"})).await;
    assert_eq!(refused["code"], "already_in_room", "{refused}");
}

#[tokio::test]
async fn four_players_in_the_3_4p_pool_get_one_table() {
    let addr = server(|_| {}).await;
    let mut players = Vec::new();
    for name in ["Lea", "Max", "Ned", "Oda"] {
        let (mut c, _) = player(addr, name).await;
        find(&mut c, "3-4p").await;
        players.push(c);
    }
    let mut proposals = Vec::new();
    for c in &mut players {
        let p = proposal(c).await;
        assert_eq!(p["pool"], "3-4p");
        assert_eq!(opponents(&p).len(), 3, "{p}");
        proposals.push(p);
    }
    for (c, p) in players.iter_mut().zip(&proposals) {
        accept(c, p).await;
    }
    let mut rooms = Vec::new();
    for (c, p) in players.iter_mut().zip(&proposals) {
        rooms.push(enter(c, p).await);
    }
    rooms.dedup();
    assert_eq!(rooms.len(), 1, "one room for the four");
    players[0].start().await;
}
