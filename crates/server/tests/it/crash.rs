//! `kill -9` at random moments, again and again, while four games are played: every
//! reply a client saw the result of survives, every game reopens under its room id and
//! ends, each log replays through the engine to the scores and state digest the server
//! reported, and the database passes its integrity check. On SQLite and on PostgreSQL.

use crate::common::{Client, simple_reply};
use crate::process::{
    Backend, ServerProcess, SplitMix, TestStore, engine_reply, on_both_backends, parse_digest,
    record_from_history, score_fields, stored_reply, try_connect, try_send, wire_scores,
};
use dominion_engine::{Game, PlayerId};
use serde_json::{Value, json};
use std::cmp::Ordering as Order;
use std::collections::{BTreeMap, BTreeSet};
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};
use tokio::sync::{Notify, mpsc, watch};

/// The whole test fails past this.
const WALL_CAP: Duration = Duration::from_secs(240);
/// At least this many kills must land while a game is still being played.
const MIN_KILLS: u32 = 20;
/// The kill moments come from this seed unless `CRASH_TEST_SEED` says otherwise.
const DEFAULT_SEED: u64 = 0x00d0_5eed_2026;

/// One test client's seat, carried across server lives.
#[derive(Clone, Debug)]
pub(crate) struct Player {
    pub(crate) name: String,
    pub(crate) room: String,
    pub(crate) seat: u64,
    pub(crate) token: String,
    /// The number of the last game event received.
    pub(crate) last_event: Option<u64>,
    /// The last command id used (ids only grow, across connections).
    pub(crate) last_id: u64,
    /// Replies whose result this client saw: (decision, wire reply).
    pub(crate) acked: Vec<(u64, Value)>,
    /// Replies sent whose result had not been seen when the server died.
    pub(crate) in_doubt: u64,
    /// The latest decision (in game order: see [`game_order`]) answered and acknowledged;
    /// every one before it was too.
    pub(crate) floor: Option<u64>,
    /// Resumes that were answered with `seated`.
    pub(crate) resumes: u64,
    /// The `game_over` frame, or the history record if the room was gone after a restart.
    pub(crate) over: Option<Value>,
}

/// A reply sent and not yet acknowledged.
#[derive(Debug)]
struct Outstanding {
    id: u64,
    decision: u64,
    reply: Value,
}

/// How two decision numbers of one game compare in time. Numbers are unique but not
/// increasing: every decision but a Reaction question is numbered 1000 × the replies to
/// such decisions so far, and a Reaction question takes `1000 × s + 1 + k` (its `k`-th
/// since), so it comes after the decisions numbered below `1000 × s` and before `1000 × s`
/// itself, the next other decision.
fn game_order(a: u64, b: u64) -> Order {
    let key = |n: u64| match n % 1000 {
        0 => (n / 1000, u64::MAX),
        react => (n / 1000, react),
    };
    key(a).cmp(&key(b))
}

#[test]
fn game_order_puts_reaction_questions_before_the_decision_after_them() {
    // 1000, then Reaction questions 2001 and 2002, then 2000, then 3000.
    let asked = [1000, 2001, 2002, 2000, 3000];
    for (i, a) in asked.iter().enumerate() {
        for (j, b) in asked.iter().enumerate() {
            assert_eq!(game_order(*a, *b), i.cmp(&j), "{a} against {b}");
        }
    }
}

impl Player {
    /// Whether the game asking `d` means an acknowledged reply was lost: `d` is not
    /// after the latest acknowledged decision.
    fn lost_at(&self, d: u64) -> Option<u64> {
        self.floor.filter(|&f| game_order(d, f) != Order::Greater)
    }

    fn acknowledge(&mut self, out: &mut Option<Outstanding>, acks: &AtomicU64, notify: &Notify) {
        if let Some(o) = out.take() {
            self.acked.push((o.decision, o.reply));
            if self
                .floor
                .is_none_or(|f| game_order(o.decision, f) == Order::Greater)
            {
                self.floor = Some(o.decision);
            }
            acks.fetch_add(1, Ordering::SeqCst);
            notify.notify_one();
        }
    }
}

/// One server life for one client: resume the seat, play with [`simple_reply`], until
/// the connection dies (the server was killed), `stop` turns true (the test drops the
/// connection) or the game is over; `pace` is a pause before each reply. Protocol violations
/// and lost acknowledged replies are errors; a dead server is not.
pub(crate) async fn play_one_life(
    addr: SocketAddr,
    mut p: Player,
    acks: Arc<AtomicU64>,
    notify: Arc<Notify>,
    mut stop: watch::Receiver<bool>,
    pace: Duration,
) -> Result<Player, String> {
    let Ok(mut c) = try_connect(addr, &p.name).await else {
        return Ok(p); // the server died under the handshake
    };
    c.last_event = p.last_event;
    p.last_id += 1;
    let resume_id = p.last_id;
    let mut resume = json!({"type": "resume", "id": resume_id, "room": p.room, "token": p.token});
    if let Some(last) = p.last_event {
        resume["last_event"] = json!(last);
    }
    if try_send(&mut c, &resume).await.is_err() {
        return Ok(p);
    }
    let resumed_from = p.last_event;
    let mut caught_up = false;
    let mut out: Option<Outstanding> = None;
    let who = format!("{} (room {}, seat {})", p.name, p.room, p.seat);
    loop {
        let v = tokio::select! {
            v = c.recv_or_close() => match v {
                Ok(v) => v,
                Err(_) => break,
            },
            _ = stop.wait_for(|s| *s) => break,
        };
        p.last_event = c.last_event;
        match v["type"].as_str().unwrap_or_default() {
            "seated" => {
                if v["re"] != resume_id || v["seat"] != p.seat || v["room"] != p.room.as_str() {
                    return Err(format!("{who}: resume {resume} answered by {v}"));
                }
                p.last_id = p.last_id.max(v["last_command"].as_u64().unwrap_or(0));
                p.resumes += 1;
            }
            "error" => {
                return Err(format!(
                    "{who}: error {v} (resume id {resume_id}, reply outstanding: {out:?})"
                ));
            }
            t @ ("events" | "snapshot") => {
                if !caught_up {
                    caught_up = true;
                    if let Some(last) = resumed_from {
                        let ok = if t == "events" {
                            v["first"].as_u64() == Some(last + 1)
                        } else {
                            v["next_event"].as_u64().is_some_and(|n| n > last)
                        };
                        if !ok {
                            return Err(format!(
                                "{who}: resumed after event {last} but the catch-up is {v}: \
                                 events this client already had are gone"
                            ));
                        }
                    }
                }
                // A view carries the decision number in the asked seat's view only.
                let view = &v["view"];
                if view["game_over"] == true {
                    p.acknowledge(&mut out, &acks, &notify);
                } else if let Some(d) = view["decision"].as_u64() {
                    if let Some(f) = p.lost_at(d) {
                        return Err(format!(
                            "{who}: the game waits for decision {d}, but decision {f} (no \
                             earlier) was answered and acknowledged: an acknowledged reply \
                             was lost"
                        ));
                    }
                    if out
                        .as_ref()
                        .is_some_and(|o| game_order(d, o.decision) == Order::Greater)
                    {
                        p.acknowledge(&mut out, &acks, &notify);
                    }
                } else if out.is_some() {
                    // The reply's decision was pending and this seat's: now none of this
                    // seat's is, so the reply was applied.
                    p.acknowledge(&mut out, &acks, &notify);
                }
            }
            "decision" => {
                let d = v["decision"].as_u64().unwrap_or_default();
                if v["seat"] != p.seat {
                    return Err(format!("{who}: got another seat's decision {v}"));
                }
                if let Some(f) = p.lost_at(d) {
                    return Err(format!(
                        "{who}: asked decision {d}, though decision {f} (no earlier) was \
                         answered and acknowledged: an acknowledged reply was lost"
                    ));
                }
                if let Some(o) = &out {
                    if d == o.decision {
                        return Err(format!(
                            "{who}: decision {d} asked again while its reply {o:?} is unanswered"
                        ));
                    }
                    p.acknowledge(&mut out, &acks, &notify);
                }
                if !pace.is_zero() {
                    tokio::time::sleep(pace).await;
                }
                let reply = simple_reply(&v);
                p.last_id += 1;
                let msg = json!({"type": "reply", "id": p.last_id, "decision": d, "reply": reply});
                out = Some(Outstanding {
                    id: p.last_id,
                    decision: d,
                    reply,
                });
                if try_send(&mut c, &msg).await.is_err() {
                    break;
                }
            }
            "ack" if out.as_ref().is_some_and(|o| v["re"] == o.id) => {
                p.acknowledge(&mut out, &acks, &notify);
            }
            "game_over" => {
                p.acknowledge(&mut out, &acks, &notify);
                p.over = Some(v);
                let _ = c.ws.close(None).await;
                return Ok(p);
            }
            _ => {}
        }
    }
    if out.is_some() {
        p.in_doubt += 1;
    }
    Ok(p)
}

pub(crate) fn settings(seats: Value, kingdom: Value) -> Value {
    json!({
        "kingdom": kingdom,
        "seats": seats,
        // Nobody else plays an absent human's seat: every reply in a human seat is ours.
        "abandoned": {"type": "wait"},
    })
}

pub(crate) fn seat_player(c: &Client, room: &str) -> Player {
    Player {
        name: c.name.clone(),
        room: room.to_string(),
        seat: c.seat.expect("seated"),
        token: c.token.clone().expect("token"),
        last_event: c.last_event,
        last_id: c.last_id(),
        acked: Vec::new(),
        in_doubt: 0,
        floor: None,
        resumes: 0,
        over: None,
    }
}

/// Creates the rooms, seats the players and starts every game (then lets the sockets go).
async fn set_up(server: &ServerProcess) -> Vec<Player> {
    let first_game = json!({"type": "recommended", "id": "base_2e/first_game"});
    let mut players = Vec::new();
    for (name, bot) in [("Ann", "big_money"), ("Bea", "militia"), ("Cid", "smithy")] {
        let mut c = Client::connect(server.addr, name).await;
        let room = c
            .create_room_with(settings(
                json!([{"type": "open"}, {"type": "bot", "bot": bot}]),
                first_game.clone(),
            ))
            .await;
        c.take_seat(&room).await;
        c.start().await;
        players.push(seat_player(&c, &room));
    }
    let mut dee = Client::connect(server.addr, "Dee").await;
    let room = dee
        .create_room_with(settings(
            json!([{"type": "open"}, {"type": "open"}]),
            json!({"type": "random"}),
        ))
        .await;
    dee.take_seat(&room).await;
    let mut eve = Client::connect(server.addr, "Eve").await;
    eve.take_seat(&room).await;
    dee.start().await;
    players.push(seat_player(&dee, &room));
    players.push(seat_player(&eve, &room));
    players
}

enum Moment {
    /// Kill this many ms after the server said it listens (during its recovery, the
    /// resumes, or play).
    After(u64),
    /// Kill once this many replies were acknowledged (at most 3 s).
    Acks(u64),
}

/// A `game_over` frame against the served record and its replay (`numbers`: the
/// decision number each reply answered, by the replay).
fn compare_game_over(
    p: &Player,
    over: &Value,
    history: &Value,
    scores: &Value,
    record: &dominion_engine::GameRecord,
    numbers: &[u64],
) {
    assert_eq!(
        score_fields(&over["scores"]),
        *scores,
        "{}: game_over scores differ from the replay's",
        p.name
    );
    assert_eq!(over["seed"], history["seed"], "{}", p.name);
    for field in ["players", "edition"] {
        assert_eq!(over["setup"][field], history["setup"][field], "{}", p.name);
    }
    let told: Vec<(PlayerId, dominion_engine::Reply)> = over["replies"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let seat = r["seat"].as_u64().unwrap() as u8;
            (PlayerId(seat), engine_reply(&r["reply"]))
        })
        .collect();
    assert!(
        told == record.replies,
        "{}: the record in game_over ({} replies) differs from the stored log ({})",
        p.name,
        told.len(),
        record.replies.len()
    );
    let told: Vec<u64> = over["replies"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["decision"].as_u64().unwrap())
        .collect();
    assert_eq!(
        told, numbers,
        "{}: the decision numbers in game_over differ from the replay's",
        p.name
    );
}

/// Every game is over, as `server` tells it (its history API), and every reply a player
/// saw acknowledged is in its room's log, at its place; each log replays through the
/// engine to the scores served and to each player's `game_over`. Returns each room's
/// record and final state digest.
pub(crate) async fn verify_logs(
    server: &ServerProcess,
    rooms: &BTreeSet<String>,
    players: &[Player],
) -> Vec<(String, dominion_engine::GameRecord, u64)> {
    let listing = server.get_json("/api/games").await;
    let listed: BTreeSet<String> = listing
        .as_array()
        .unwrap_or_else(|| panic!("GET /api/games is not an array: {listing}"))
        .iter()
        .filter_map(|g| g["room"].as_str().or(g["id"].as_str()).map(String::from))
        .collect();
    let mut replayed = Vec::new();
    for room in rooms {
        assert!(listed.contains(room), "{room} missing from {listing}");
        let history = server.get_json(&format!("/api/games/{room}")).await;
        assert_eq!(history["room"], room.as_str(), "{history}");
        let record = record_from_history(&history);
        let game = Game::replay(&record)
            .unwrap_or_else(|e| panic!("room {room}: its log does not replay: {e}"));
        assert!(
            game.is_over(),
            "room {room}: the replayed log does not end the game"
        );
        let scores = wire_scores(&game.scores());
        // Where each decision's reply is in the log.
        let position: BTreeMap<u64, usize> = game
            .reply_numbers()
            .iter()
            .enumerate()
            .map(|(i, n)| (*n, i))
            .collect();
        assert_eq!(
            position.len(),
            record.replies.len(),
            "room {room}: decision numbers repeat: {:?}",
            game.reply_numbers()
        );
        assert_eq!(
            score_fields(&history["scores"]),
            scores,
            "room {room}: the scores served differ from the replay's"
        );
        for p in players.iter().filter(|p| &p.room == room) {
            let over = p.over.as_ref().unwrap();
            compare_game_over(p, over, &history, &scores, &record, game.reply_numbers());
            // The point of it all: every acknowledged reply is in the log, where it was.
            let mut decisions = BTreeSet::new();
            for (d, wire) in &p.acked {
                assert!(
                    decisions.insert(*d),
                    "{}: decision {d} acknowledged twice",
                    p.name
                );
                let at = position.get(d);
                let logged = at.and_then(|&i| record.replies.get(i));
                let expected = (PlayerId(p.seat as u8), engine_reply(wire));
                assert!(
                    logged == Some(&expected),
                    "{} (room {room}): acknowledged reply {wire} to decision {d} is not in the \
                     log (at {at:?} the log has {logged:?})",
                    p.name
                );
            }
        }
        replayed.push((room.clone(), record, game.digest()));
    }

    replayed
}

on_both_backends!(
    kill_9_at_random_moments_loses_no_acknowledged_reply,
    a_room_whose_log_does_not_replay_is_marked_broken_and_the_others_reopen,
);

async fn kill_9_at_random_moments_loses_no_acknowledged_reply(backend: Backend) {
    let seed = std::env::var("CRASH_TEST_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(DEFAULT_SEED);
    let mut rng = SplitMix::new(seed);
    let store = TestStore::new(backend);
    let started = Instant::now();
    let mut server = store.start(&[]).await;
    let mut players = set_up(&server).await;
    let rooms: BTreeSet<String> = players.iter().map(|p| p.room.clone()).collect();

    let (mut kills, mut restarts) = (0u32, 0u32);
    // The server's death ends every connection here; the test never drops one itself.
    let (_keep, never_stop) = watch::channel(false);
    loop {
        let live: Vec<usize> = (0..players.len())
            .filter(|&i| players[i].over.is_none())
            .collect();
        if live.is_empty() {
            break;
        }
        assert!(
            started.elapsed() < WALL_CAP,
            "the games did not finish within {WALL_CAP:?} ({kills} kills, {restarts} restarts); \
             players: {:#?}\nserver output:\n{}",
            players
                .iter()
                .map(|p| (&p.name, &p.room, p.last_event, p.floor, p.over.is_some()))
                .collect::<Vec<_>>(),
            server.output_tail(80)
        );
        let acks = Arc::new(AtomicU64::new(0));
        let notify = Arc::new(Notify::new());
        let (tx, mut rx) = mpsc::unbounded_channel();
        for &i in &live {
            let (p, acks, notify, tx) =
                (players[i].clone(), acks.clone(), notify.clone(), tx.clone());
            let addr = server.addr;
            let never = never_stop.clone();
            tokio::spawn(async move {
                let r = play_one_life(addr, p, acks, notify, never, Duration::ZERO).await;
                let _ = tx.send((i, r));
            });
        }
        drop(tx);

        // Kill moments: the first MIN_KILLS within a few replies each, so that many land
        // before any game can end however fast the machine; then a wider mix.
        let moment = match (kills < MIN_KILLS, rng.between(0, 9)) {
            // At most a few milliseconds: a game's replies take ~3 ms each now (Nagle's
            // 40 ms used to pace them), and the games must not end before MIN_KILLS.
            (true, 0..=1) => Moment::After(rng.between(0, 5)),
            (true, _) => Moment::Acks(rng.between(1, 3)),
            (false, 0) => Moment::After(rng.between(0, 50)),
            (false, 1..=4) => Moment::After(rng.between(50, 600)),
            (false, _) => Moment::Acks(rng.between(1, 8)),
        };
        let deadline = tokio::time::Instant::now()
            + Duration::from_millis(match moment {
                Moment::After(ms) => ms,
                Moment::Acks(_) => 3000,
            });
        let mut results = Vec::new();
        loop {
            if let Moment::Acks(n) = moment
                && acks.load(Ordering::SeqCst) >= n
            {
                break;
            }
            if results.len() == live.len() {
                break;
            }
            tokio::select! {
                r = rx.recv() => match r {
                    Some(r) => results.push(r),
                    None => break,
                },
                () = notify.notified() => {}
                () = tokio::time::sleep_until(deadline) => break,
            }
        }
        let mid_game = results.len() < live.len();
        server.kill();
        if mid_game {
            kills += 1;
        }
        // With the server gone every socket ends: collect everyone.
        let collected = tokio::time::timeout(Duration::from_secs(30), async {
            while let Some(r) = rx.recv().await {
                results.push(r);
            }
        })
        .await;
        assert!(
            collected.is_ok(),
            "clients still running 30 s after the server was killed"
        );
        assert_eq!(
            results.len(),
            live.len(),
            "a client task panicked; server output:\n{}",
            server.output_tail(80)
        );
        for (i, r) in results {
            match r {
                Ok(p) => players[i] = p,
                Err(e) => panic!(
                    "after {kills} kills: {e}\nserver output (this life):\n{}",
                    server.output_tail(80)
                ),
            }
        }
        // Not waiting for it to be ready: the next kill may land while it recovers.
        server = store.spawn(&[]).await;
        restarts += 1;
    }

    let replayed = verify_logs(&server, &rooms, &players).await;

    // The database itself, after one more kill -9.
    server.kill();
    assert_eq!(store.integrity_check(), "ok");
    let mut logged = 0;
    for (room, record, hash) in &replayed {
        let stored = store
            .stored_game(room)
            .unwrap_or_else(|| panic!("no game row for {room}"));
        assert!(
            stored.finished,
            "room {room}: not marked finished in the store"
        );
        assert_eq!(stored.seed, record.seed.to_string(), "room {room}");
        let replies: Vec<(PlayerId, dominion_engine::Reply)> = stored
            .replies
            .iter()
            .map(|(p, r, _)| (PlayerId(*p), stored_reply(r)))
            .collect();
        assert!(
            replies == record.replies,
            "room {room}: the file's log differs from the served one"
        );
        assert_eq!(
            parse_digest(&stored.last_hash),
            *hash,
            "room {room}: last digest"
        );
        if let Some((_, _, h)) = stored.replies.last() {
            assert_eq!(
                parse_digest(h),
                *hash,
                "room {room}: digest of the last reply"
            );
        }
        logged += replies.len();
    }

    let acked: usize = players.iter().map(|p| p.acked.len()).sum();
    let in_doubt: u64 = players.iter().map(|p| p.in_doubt).sum();
    let resumes: u64 = players.iter().map(|p| p.resumes).sum();
    eprintln!(
        "crash test ({backend:?}, seed {seed}): {kills} kill -9 mid-game, {restarts} restarts, {resumes} resumes; \
         {acked} acknowledged replies from {} clients in {} rooms, all in the logs \
         ({in_doubt} more in flight at a kill); {logged} replies logged in all; {:.1} s",
        players.len(),
        rooms.len(),
        started.elapsed().as_secs_f64()
    );
    assert!(
        kills >= MIN_KILLS,
        "only {kills} kills landed mid-game (want {MIN_KILLS}): the games ended too soon"
    );
}

async fn a_room_whose_log_does_not_replay_is_marked_broken_and_the_others_reopen(backend: Backend) {
    let store = TestStore::new(backend);
    let mut server = store.start(&[]).await;
    let mut clients = Vec::new();
    for name in ["Ann", "Bea"] {
        let mut c = Client::connect(server.addr, name).await;
        let room = c
            .create_room_with(settings(
                json!([{"type": "open"}, {"type": "bot", "bot": "big_money"}]),
                json!({"type": "recommended", "id": "base_2e/first_game"}),
            ))
            .await;
        c.take_seat(&room).await;
        c.start().await;
        c.play_decisions(4).await;
        clients.push(c);
    }
    server.kill();
    let (ann, bea) = (&clients[0], &clients[1]);
    let (bad, good) = (ann.room.clone().unwrap(), bea.room.clone().unwrap());

    // Ann's log now holds a reply the game refuses: buying a Province with no coins.
    store.replace_last_reply(&bad, r#"{"type":"buy","value":"province"}"#);

    let server = store.start(&[]).await;
    let status = store.room_status(&bad);
    assert_eq!(status.0, "broken", "{status:?}");
    assert!(
        status.1.as_deref().is_some_and(|r| !r.is_empty()),
        "a broken room says why: {status:?}"
    );
    let (code, body) = server.get(&format!("/api/games/{bad}")).await;
    assert_ne!(code, 200, "a broken game is not history: {body}");

    // Bea's room is untouched: she resumes and plays to the end.
    let mut bea2 = Client::connect(server.addr, "Bea").await;
    let seated = bea2
        .ask(json!({"type": "resume", "room": good, "token": bea.token, "last_event": bea.last_event}))
        .await;
    assert_eq!(seated["type"], "seated", "{seated}");
    bea2.number_from(seated["last_command"].as_u64().unwrap());
    let over = tokio::time::timeout(Duration::from_secs(60), bea2.play_to_end(Duration::ZERO))
        .await
        .expect("Bea's game ends within 60 s");
    assert_eq!(over["type"], "game_over");
    let history = server.get_json(&format!("/api/games/{good}")).await;
    let game = Game::replay(&record_from_history(&history)).expect("Bea's log replays");
    assert_eq!(wire_scores(&game.scores()), score_fields(&over["scores"]));

    // Ann's seat cannot be resumed into a game that cannot be rebuilt.
    let mut ann2 = Client::connect(server.addr, "Ann").await;
    let refused = ann2
        .ask(json!({"type": "resume", "room": bad, "token": ann.token, "last_event": ann.last_event}))
        .await;
    assert_eq!(refused["type"], "error", "{refused}");
    eprintln!("resume into the broken room: {refused}");
    // Taking a seat or watching says the room is broken, and why, not "no such room".
    for ask in [
        json!({"type": "take_seat", "room": bad, "name": "Cy"}),
        json!({"type": "spectate", "room": bad}),
    ] {
        let mut cy = Client::connect(server.addr, "Cy").await;
        let e = cy.ask(ask).await;
        assert_eq!(e["type"], "error", "{e}");
        let message = e["message"].as_str().unwrap();
        assert!(
            message.contains("could not be reopened") && message.contains(&bad),
            "{e}"
        );
    }
}
