//! Rated games over real sockets, on SQLite and PostgreSQL (issue 25): two accounts play
//! a rated room to its end and both see `rating_changed` with exactly what Glicko-2 and
//! the level formula give for the scores; the leaderboard and the profiles show it; an
//! unrated room and a room with a guest change nothing. And `kill -9` around the end of
//! rated games: after a restart each game is rated exactly once.

use crate::accounts::{CHEAP, register, request, server, signed_in, with_cookie};
use crate::common::{Client, simple_reply};
use crate::process::{Backend, TestStore, on_both_backends};
use dominion_rating::{Pool, Rating, rate_game};
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::time::Duration;

on_both_backends!(
    a_rated_game_changes_both_levels_by_the_formula,
    kill_9_around_the_end_of_rated_games_rates_each_once,
);

/// Registers `name` and returns its session cookie.
async fn account(addr: SocketAddr, name: &str) -> String {
    let created = register(addr, name, "a long password").await;
    assert_eq!(created.status, 201, "{}", created.body);
    created.cookie()
}

fn settings(rated: bool) -> Value {
    json!({
        "kingdom": {"type": "recommended", "id": "base_2e/first_game"},
        "seats": [{"type": "open"}, {"type": "open"}],
        "rated": rated,
    })
}

/// Two signed-in players sit in a new room (`ann` creates it) and start; the seat tokens.
async fn seat_two(ann: &mut Client, bob: &mut Client, rated: bool) -> (String, Value, Value) {
    // Out of the last game's room, if they were in one (leaving none is refused, harmlessly).
    for c in [&mut *ann, &mut *bob] {
        c.ask(json!({"type": "leave"})).await;
    }
    let room = ann.create_room_with(settings(rated)).await;
    let a = ann
        .ask(json!({"type": "take_seat", "room": room, "name": "x"}))
        .await;
    let b = bob
        .ask(json!({"type": "take_seat", "room": room, "name": "y"}))
        .await;
    assert_eq!(
        (a["seat"].clone(), b["seat"].clone()),
        (json!(0), json!(1)),
        "{a} {b}"
    );
    ann.start().await;
    (room, a, b)
}

/// Places from a `game_over`'s scores: more VP, then fewer turns; equal on both tie.
fn places(over: &Value) -> Vec<u32> {
    let scores = over["scores"].as_array().expect("scores");
    let key = |s: &Value| (-s["vp"].as_i64().unwrap(), s["turns"].as_i64().unwrap());
    let mut by_seat = vec![0; scores.len()];
    for s in scores {
        let seat = s["seat"].as_u64().unwrap() as usize;
        by_seat[seat] = 1 + scores.iter().filter(|o| key(o) < key(s)).count() as u32;
    }
    by_seat
}

fn close(a: f64, b: &Value) -> bool {
    (a - b.as_f64().unwrap()).abs() < 1e-9 * a.abs().max(1.0)
}

/// Both players of a fresh 2p game get the same `rating_changed`, exactly as the formula.
fn check_changes(changes: &Value, before: [Rating; 2], places: &[u32], names: [&str; 2]) {
    let after = rate_game(
        Pool::TwoPlayer,
        &[(before[0], places[0]), (before[1], places[1])],
    )
    .unwrap();
    let list = changes["changes"].as_array().expect("changes");
    assert_eq!(list.len(), 2, "{changes}");
    for (seat, c) in list.iter().enumerate() {
        assert_eq!(c["seat"], json!(seat), "{changes}");
        assert_eq!(c["name"], names[seat], "{changes}");
        assert_eq!(c["pool"], "2p");
        assert!(close(before[seat].rating, &c["rating_before"]), "{c}");
        assert!(close(after[seat].rating, &c["rating_after"]), "{c}");
        assert!(close(after[seat].deviation, &c["deviation_after"]), "{c}");
        assert!(close(before[seat].level(), &c["level_before"]), "{c}");
        assert!(close(after[seat].level(), &c["level_after"]), "{c}");
    }
}

async fn a_rated_game_changes_both_levels_by_the_formula(backend: Backend) {
    let store = TestStore::new(backend);
    let addr = server(&store, |_| {}).await;
    let (ann_cookie, bob_cookie) = (account(addr, "Ann").await, account(addr, "Bob").await);
    let mut ann = signed_in(addr, &ann_cookie, "Ann").await;
    let mut bob = signed_in(addr, &bob_cookie, "Bob").await;

    let (room, _, _) = seat_two(&mut ann, &mut bob, true).await;
    let (over, _) = tokio::join!(
        ann.play_to_end(Duration::ZERO),
        bob.play_to_end(Duration::ZERO)
    );
    let places = places(&over);
    let for_ann = ann.until(|v| v["type"] == "rating_changed").await;
    let for_bob = bob.until(|v| v["type"] == "rating_changed").await;
    assert_eq!(for_ann, for_bob);
    check_changes(&for_ann, [Rating::DEFAULT; 2], &places, ["Ann", "Bob"]);
    let after = rate_game(
        Pool::TwoPlayer,
        &[(Rating::DEFAULT, places[0]), (Rating::DEFAULT, places[1])],
    )
    .unwrap();

    // Who comes back to the finished room is told again, after game_over.
    let mut late = Client::connect(addr, "late").await;
    let watching = late.ask(json!({"type": "spectate", "room": room})).await;
    assert_eq!(watching["type"], "spectating", "{watching}");
    assert_eq!(late.until(|v| v["type"] == "rating_changed").await, for_ann);

    // The leaderboard: both, best first, the reader's own row; anyone may read it.
    let board = request(
        addr,
        "GET",
        "/api/leaderboard?pool=2p",
        &with_cookie(addr, &ann_cookie),
        None,
    )
    .await;
    assert_eq!(board.status, 200, "{}", board.body);
    let b = board.json();
    assert_eq!(
        (
            b["pool"].clone(),
            b["page"].clone(),
            b["pages"].clone(),
            b["total"].clone()
        ),
        (json!("2p"), json!(1), json!(1), json!(2))
    );
    let rows = b["rows"].as_array().unwrap();
    assert!(
        rows[0]["level"].as_f64() >= rows[1]["level"].as_f64(),
        "{b}"
    );
    assert_eq!(b["me"]["name"], "Ann");
    assert!(close(after[0].level(), &b["me"]["level"]), "{b}");
    assert_eq!(b["friends"], json!([]));
    let public = request(addr, "GET", "/api/leaderboard?pool=3-4p&page=1", &[], None).await;
    assert_eq!(public.status, 200, "{}", public.body);
    assert_eq!(
        (
            public.json()["total"].clone(),
            public.json().get("me").cloned()
        ),
        (json!(0), None)
    );
    for bad in ["pool=5p", "page=0", "page=x"] {
        let r = request(addr, "GET", &format!("/api/leaderboard?{bad}"), &[], None).await;
        assert_eq!(
            (r.status, r.json()["code"].clone()),
            (400, json!("bad_request")),
            "{bad}"
        );
    }

    // The profile: the pool's rating and one point of the chart.
    let profile = request(addr, "GET", "/api/players/Bob", &[], None)
        .await
        .json();
    let r = &profile["ratings"][0];
    assert_eq!(
        (r["pool"].clone(), r["games"].clone()),
        (json!("2p"), json!(1)),
        "{profile}"
    );
    assert!(close(after[1].rating, &r["rating"]), "{r}");
    assert_eq!(r["history"].as_array().unwrap().len(), 1);
    assert_eq!(r["history"][0]["room"], json!(room));
    assert!(close(after[1].level(), &r["history"][0]["level"]), "{r}");

    // An unrated room, and a rated room with a guest in it, rate nothing.
    seat_two(&mut ann, &mut bob, false).await;
    tokio::join!(
        ann.play_to_end(Duration::ZERO),
        bob.play_to_end(Duration::ZERO)
    );
    let mut guest = Client::connect(addr, "guest").await;
    ann.ask(json!({"type": "leave"})).await;
    let room = ann.create_room_with(settings(true)).await;
    ann.ask(json!({"type": "take_seat", "room": room, "name": "x"}))
        .await;
    guest.take_seat(&room).await;
    ann.start().await;
    tokio::join!(
        ann.play_to_end(Duration::ZERO),
        guest.play_to_end(Duration::ZERO)
    );
    let profile = request(addr, "GET", "/api/players/Ann", &[], None)
        .await
        .json();
    assert_eq!(profile["games"], 3);
    assert_eq!(profile["ratings"][0]["games"], 1, "{profile}");

    // The second rated game starts from the first one's ratings.
    let (_, _, _) = seat_two(&mut ann, &mut bob, true).await;
    let (over, _) = tokio::join!(
        ann.play_to_end(Duration::ZERO),
        bob.play_to_end(Duration::ZERO)
    );
    let changes = ann.until(|v| v["type"] == "rating_changed").await;
    check_changes(
        &changes,
        [after[0], after[1]],
        &places_of(&over),
        ["Ann", "Bob"],
    );
}

fn places_of(over: &Value) -> Vec<u32> {
    places(over)
}

/// One player's side of a game across server lives: its seat token, the command ids it
/// used, the last event it saw.
struct Side {
    room: String,
    token: String,
    last_id: u64,
    last_event: Option<u64>,
}

/// Plays `c` until `game_over` (returned) or until it has bought the game's last
/// Province and `kill_after` more replies went out (then `None`: time to kill).
async fn play_until(c: &mut Client, side: &mut Side, kill_after: Option<u32>) -> Option<Value> {
    let mut countdown: Option<u32> = None;
    let mut provinces = None;
    loop {
        let v = match tokio::time::timeout(Duration::from_secs(60), c.recv_or_closed()).await {
            Ok(Ok(v)) => v,
            _ => return None,
        };
        if let Some(n) = v["next_event"].as_u64() {
            side.last_event = n.checked_sub(1).or(side.last_event);
        }
        if let (Some(first), Some(events)) = (v["first"].as_u64(), v["events"].as_array())
            && v["type"] == "events"
        {
            side.last_event = Some(first + events.len() as u64 - 1);
        }
        if let Some(pile) = v["view"]["supply"]
            .as_array()
            .and_then(|s| s.iter().find(|p| p["card"] == "province"))
        {
            provinces = pile["count"].as_u64();
        }
        match v["type"].as_str() {
            Some("decision") => {
                let reply = simple_reply(&v);
                let last_province =
                    reply == json!({"type": "buy", "card": "province"}) && provinces == Some(1);
                c.reply(v["decision"].as_u64().unwrap(), reply).await;
                side.last_id = c.last_id();
                if let Some(after) = kill_after {
                    if last_province {
                        countdown = Some(after);
                    } else if let Some(n) = countdown.as_mut() {
                        *n = n.saturating_sub(1);
                    }
                    if countdown == Some(0) {
                        return None;
                    }
                }
            }
            Some("game_over") => return Some(v),
            _ => {}
        }
    }
}

async fn resume(addr: SocketAddr, side: &Side, name: &str) -> Client {
    try_resume(addr, side, name)
        .await
        .unwrap_or_else(|refused| panic!("resume answered {refused}"))
}

/// Resumes the seat at `addr`: the client once `seated`, or the refusal.
async fn try_resume(addr: SocketAddr, side: &Side, name: &str) -> Result<Client, Value> {
    let mut c = Client::connect(addr, name).await;
    c.number_from(side.last_id + 1_000);
    let mut msg = json!({"type": "resume", "room": side.room, "token": side.token});
    if let Some(e) = side.last_event {
        msg["last_event"] = json!(e);
    }
    let seated = c.ask(msg).await;
    if seated["type"] == "seated" {
        Ok(c)
    } else {
        Err(seated)
    }
}

/// Three rated games between the same two accounts; in each the server is killed (`kill
/// -9`) just as the last Province is bought — 0, 1 and 2 replies after it, so before,
/// around and after the game's end is committed — then restarted, the players resume
/// and finish. Every game ends rated exactly once: two `rating_changes` rows, one more
/// game in each player's rating, and ratings equal to replaying the three results.
async fn kill_9_around_the_end_of_rated_games_rates_each_once(backend: Backend) {
    let store = TestStore::new(backend);
    let mut server = store.start(&CHEAP).await;
    let addr = server.addr;
    let cookies = [account(addr, "Ann").await, account(addr, "Bob").await];
    let names = ["Ann", "Bob"];
    let mut expected = [Rating::DEFAULT; 2];
    let mut rooms = Vec::new();
    let mut landed = Vec::new();
    for kill_after in 0..3u32 {
        let addr = server.addr;
        let mut ann = signed_in(addr, &cookies[0], "Ann").await;
        let mut bob = signed_in(addr, &cookies[1], "Bob").await;
        let (room, a, b) = seat_two(&mut ann, &mut bob, true).await;
        rooms.push(room.clone());
        let side = |s: &Value, c: &Client| Side {
            room: room.clone(),
            token: s["token"].as_str().unwrap().to_string(),
            last_id: c.last_id(),
            last_event: None,
        };
        let mut sides = [side(&a, &ann), side(&b, &bob)];
        // Both play; whoever buys the last Province triggers the kill (or the game's end,
        // if it comes first).
        let [sa, sb] = &mut sides;
        {
            let fa = play_until(&mut ann, sa, Some(kill_after));
            let fb = play_until(&mut bob, sb, Some(kill_after));
            tokio::pin!(fa, fb);
            let ended = tokio::select! {
                o = &mut fa => o,
                o = &mut fb => o,
            };
            landed.push(if ended.is_some() {
                "after game_over"
            } else {
                "before game_over"
            });
        }
        server.kill();
        drop((ann, bob));
        server = store.start(&CHEAP).await;
        let addr = server.addr;
        let mut ann = resume(addr, &sides[0], "Ann").await;
        let mut bob = resume(addr, &sides[1], "Bob").await;
        let [sa, sb] = &mut sides;
        let (oa, ob) = tokio::join!(
            play_until(&mut ann, sa, None),
            play_until(&mut bob, sb, None)
        );
        let over = oa.or(ob).expect("the game ends after the restart");
        let p = places(&over);
        let after =
            rate_game(Pool::TwoPlayer, &[(expected[0], p[0]), (expected[1], p[1])]).unwrap();
        // Whoever resumes the finished room hears its rating.
        let changes = ann.until(|v| v["type"] == "rating_changed").await;
        check_changes(&changes, expected, &p, names);
        expected = [after[0], after[1]];
    }
    drop(server);
    eprintln!("the kills landed: {landed:?}");

    // Straight from the database (on a plain thread: PostgreSQL's blocking client):
    // each game rated once, and nothing else.
    let database = store.database();
    std::thread::spawn(move || check_rated_once(&database, &rooms, expected))
        .join()
        .unwrap();
}

fn check_rated_once(database: &dominion_store::Database, rooms: &[String], expected: [Rating; 2]) {
    let mut a = dominion_store::Accounts::open(database).unwrap();
    for room in rooms {
        assert_eq!(a.room_rating_changes(room).unwrap().len(), 2, "{room}");
    }
    let ratings = a.all_ratings().unwrap();
    assert_eq!(ratings.len(), 2);
    for (row, want) in ratings.iter().zip(expected) {
        assert_eq!(row.games, 3);
        let (x, y) = (row.rating, want);
        assert!(
            (x.rating - y.rating).abs() < 1e-9 && (x.deviation - y.deviation).abs() < 1e-9,
            "{x:?} vs {y:?}"
        );
    }
    let recomputed = a.recompute_ratings().unwrap();
    assert!(recomputed.unexplained.is_empty());
    assert_eq!(
        recomputed
            .ratings
            .iter()
            .map(|r| r.games)
            .collect::<Vec<_>>(),
        [3, 3]
    );
}

/// Two nodes of a cluster on one PostgreSQL: a rated game runs at n0, which is paused
/// (SIGSTOP) just as the last Province is bought; its players resume at n1, which takes
/// the room over (a newer fencing token) and plays it to its end. When n0 wakes, whatever
/// it still had to write for that room is refused by the fence. The game is rated once,
/// by whichever node stored its end while it owned the room.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[cfg_attr(
    not(all(have_postgres, have_redis)),
    ignore = "needs PostgreSQL and Redis — run scripts/setup-test-deps.sh"
)]
async fn two_nodes_never_rate_the_same_game() {
    let mut env = crate::cluster::Backends::start();
    let nodes = [
        env.node_with("n0", &CHEAP).await,
        env.node_with("n1", &CHEAP).await,
    ];
    let cookies = [
        account(nodes[0].addr, "Ann").await,
        account(nodes[0].addr, "Bob").await,
    ];
    let mut ann = signed_in(nodes[0].addr, &cookies[0], "Ann").await;
    let mut bob = signed_in(nodes[0].addr, &cookies[1], "Bob").await;
    let (room, a, b) = seat_two(&mut ann, &mut bob, true).await;
    let side = |s: &Value, c: &Client| Side {
        room: room.clone(),
        token: s["token"].as_str().unwrap().to_string(),
        last_id: c.last_id(),
        last_event: None,
    };
    let mut sides = [side(&a, &ann), side(&b, &bob)];
    let [sa, sb] = &mut sides;
    let ended_at_n0 = {
        let fa = play_until(&mut ann, sa, Some(0));
        let fb = play_until(&mut bob, sb, Some(0));
        tokio::pin!(fa, fb);
        tokio::select! {
            o = &mut fa => o.is_some(),
            o = &mut fb => o.is_some(),
        }
    };
    nodes[0].signal(libc::SIGSTOP);
    tokio::time::sleep(Duration::from_millis(2500)).await;

    // The last Province's reply may have ended the game at n0 before the pause (its end
    // and rating committed there; a finished room is not taken over by a resume): then
    // n1 does not know the room, and the game must be rated once, by n0. Otherwise n1
    // takes the room over, the players finish it there, and n1 rates it.
    let taken_over = match try_resume(nodes[1].addr, &sides[0], "Ann").await {
        Ok(mut ann2) => {
            let mut bob2 = resume(nodes[1].addr, &sides[1], "Bob").await;
            let [sa, sb] = &mut sides;
            let (oa, ob) = tokio::join!(
                play_until(&mut ann2, sa, None),
                play_until(&mut bob2, sb, None)
            );
            let over = oa.or(ob).expect("the game ends at n1");
            let changes = ann2.until(|v| v["type"] == "rating_changed").await;
            check_changes(
                &changes,
                [Rating::DEFAULT; 2],
                &places(&over),
                ["Ann", "Bob"],
            );
            true
        }
        Err(refused) => {
            // (Checked below: the game is then rated, once.)
            assert_eq!(refused["code"], "unknown_room", "{refused}");
            false
        }
    };

    // n0 wakes: anything it still writes for the room is fenced out.
    nodes[0].signal(libc::SIGCONT);
    drop((ann, bob));
    tokio::time::sleep(Duration::from_millis(1500)).await;
    if taken_over {
        let ledger = env.ledger(&room).await;
        assert!(ledger.claims.len() >= 2, "n1 took the room over");
    }
    eprintln!(
        "the game ended {} n0 was paused; {}",
        if ended_at_n0 { "before" } else { "after" },
        if taken_over {
            "n1 took the room over"
        } else {
            "n0 had ended it"
        }
    );
    let database = dominion_store::Database::Postgres {
        url: env.database.clone(),
    };
    let room2 = room.clone();
    tokio::task::spawn_blocking(move || {
        let mut a = dominion_store::Accounts::open(&database).unwrap();
        assert_eq!(a.room_rating_changes(&room2).unwrap().len(), 2);
        let ratings = a.all_ratings().unwrap();
        assert_eq!(ratings.iter().map(|r| r.games).collect::<Vec<_>>(), [1, 1]);
    })
    .await
    .unwrap();
}
