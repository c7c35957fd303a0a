//! Restoring from snapshots (`dominion_engine::snapshot`, `Game::restore`): random-bot
//! games, 2–6 players, both editions, random kingdoms from every implemented card. At
//! every snapshot point a snapshot is taken (each going through its JSON form, as the
//! store keeps it); afterwards the game is restored from the chain up to each of them:
//!
//! - with only the replies up to that point, it is the game as it was there (state,
//!   digest, pending decision and number, events, reply numbers, each viewer's
//!   visibility and view, whether the player to move may undo);
//! - with all the replies, it is the finished game (the same future: digest, state,
//!   events, record, scores).
//!
//! Over all games every kingdom card is in some kingdom, and nearly all are put into
//! play (or, for Gardens, gained). Snapshots of another format or rules version, whose history does
//! not join up, or whose state does not match its digest are refused.

use dominion_engine::setup::CardPool;
use dominion_engine::snapshot::{Mark, RestoreError, SNAPSHOT_VERSION, Snapshot};
use dominion_engine::{
    Agent, CardId, Edition, Event, Game, GameRecord, Kingdom, Observation, PlayerId, Setup, Viewer,
    bots,
};
use std::collections::BTreeSet;

mod common;

const GAMES: u64 = 64;

/// What a caller can observe of a game at one point.
#[derive(Debug, PartialEq)]
struct Seen {
    digest: u64,
    hash: u64,
    pending: Option<dominion_engine::Request>,
    number: Option<u64>,
    events: Vec<Event>,
    numbers: Vec<u64>,
    visible: Vec<dominion_engine::Visible>,
    views: Vec<String>,
    undo: Option<Result<(), dominion_engine::UndoRefused>>,
    record: GameRecord,
}

fn seen(g: &Game) -> Seen {
    let viewers: Vec<Viewer> = (0..g.num_players())
        .map(|i| Viewer::Player(PlayerId(i as u8)))
        .chain([Viewer::Spectator])
        .collect();
    Seen {
        digest: g.digest(),
        hash: g.state_hash(),
        pending: g.pending().cloned(),
        number: g.decision_number(),
        events: g.events().to_vec(),
        numbers: g.reply_numbers().to_vec(),
        visible: viewers.iter().map(|v| g.visible(*v)).collect(),
        views: viewers
            .iter()
            .map(|v| format!("{:?}", g.view(*v)))
            .collect(),
        undo: g.pending().map(|r| g.can_undo(r.player)),
        record: g.record(),
    }
}

fn through_json(s: &Snapshot) -> Snapshot {
    let text = serde_json::to_string(s).unwrap();
    serde_json::from_str(&text).unwrap()
}

fn truncated(record: &GameRecord, n: usize) -> GameRecord {
    GameRecord {
        replies: record.replies[..n].to_vec(),
        ..record.clone()
    }
}

fn play_one(seed: u64, kingdoms: &mut BTreeSet<CardId>, played: &mut BTreeSet<CardId>) -> usize {
    let players = 2 + (seed % 5) as u8;
    let edition = if seed.is_multiple_of(2) {
        Edition::Second
    } else {
        Edition::First
    };
    let setup = Setup {
        players,
        kingdom: Kingdom::RandomFrom(CardPool::Both),
        edition,
    };
    let mut g = Game::new(&setup, seed).unwrap();
    kingdoms.extend(g.kingdom().iter().copied());
    // Mostly big_money-like buyers so the games end in a reasonable number of turns,
    // with random players to reach every card's questions.
    let mut agents: Vec<Box<dyn Agent + Send>> = (0..players)
        .map(|i| {
            let name = if i % 2 == 0 || seed.is_multiple_of(3) {
                "random"
            } else {
                "standard"
            };
            bots::by_name(name, seed * 31 + u64::from(i)).unwrap()
        })
        .collect();
    let mut chain = Vec::new();
    let mut points = Vec::new();
    let mut mark = Mark::default();
    assert!(
        g.snapshot(mark).is_none(),
        "seed {seed}: a snapshot before any reply"
    );
    while let Some(req) = g.pending().cloned() {
        if let Some(s) = g.snapshot(mark) {
            mark = s.end();
            chain.push(through_json(&s));
            points.push(seen(&g));
        } else {
            assert!(!g.at_snapshot_point());
        }
        let r = agents[req.player.idx()].decide(&Observation::for_player(&g, req.player), &req);
        g.answer(req.player, r).unwrap();
        assert!(g.replies().len() < 100_000, "seed {seed}: game did not end");
    }
    assert!(
        g.snapshot(mark).is_none(),
        "seed {seed}: a snapshot of a finished game"
    );
    for e in g.events() {
        match e {
            Event::Played { card, .. } if card.is_kingdom() => {
                played.insert(*card);
            }
            Event::Gained { card, .. }
                if card.is_kingdom() && !card.is_action() && !card.is_treasure() =>
            {
                played.insert(*card);
            }
            _ => {}
        }
    }
    let record = g.record();
    let end = seen(&g);
    assert!(!chain.is_empty(), "seed {seed}: no snapshot point");
    for (k, at) in points.iter().enumerate() {
        let n = chain[k].replies as usize;
        let here = Game::restore(&truncated(&record, n), &chain[..=k])
            .unwrap_or_else(|e| panic!("seed {seed}: restore at {n}: {e}"));
        assert_eq!(&seen(&here), at, "seed {seed}: restored at reply {n}");
        let restored = Game::restore(&record, &chain[..=k])
            .unwrap_or_else(|e| panic!("seed {seed}: restore from {n}: {e}"));
        assert_eq!(seen(&restored), end, "seed {seed}: future from reply {n}");
        assert_eq!(restored.scores(), g.scores());
    }
    chain.len()
}

#[test]
fn a_restored_game_is_the_replayed_game_at_every_snapshot_point() {
    // Over every core (`common::on_every_core`), as in tests/properties.rs.
    let parts = common::on_every_core(GAMES, |seeds| {
        let (mut kingdoms, mut played, mut snapshots) = (BTreeSet::new(), BTreeSet::new(), 0);
        for seed in seeds {
            snapshots += play_one(seed, &mut kingdoms, &mut played);
        }
        (kingdoms, played, snapshots)
    });
    let mut kingdoms = BTreeSet::new();
    let mut played = BTreeSet::new();
    let mut snapshots = 0;
    for (k, p, n) in parts {
        kingdoms.extend(k);
        played.extend(p);
        snapshots += n;
    }
    let all: BTreeSet<CardId> = CardId::all().filter(|c| c.is_kingdom()).collect();
    assert_eq!(all.len(), 64);
    assert_eq!(kingdoms, all, "kingdom cards never in a kingdom");
    // The $6 Actions rarely come into random players' hands; nearly every card does.
    assert!(
        played.len() >= 58,
        "only {} kingdom cards played",
        played.len()
    );
    assert!(snapshots > 1000, "{snapshots} snapshots");
    eprintln!(
        "{snapshots} snapshot points checked, {} kingdom cards played",
        played.len()
    );
}

fn sample() -> (GameRecord, Vec<Snapshot>) {
    let setup = Setup {
        players: 3,
        kingdom: Kingdom::RandomFrom(CardPool::Both),
        edition: Edition::Second,
    };
    let mut g = Game::new(&setup, 5).unwrap();
    let mut agents: Vec<_> = (0..3)
        .map(|i| bots::by_name("standard", i).unwrap())
        .collect();
    let mut chain = Vec::new();
    let mut mark = Mark::default();
    while let Some(req) = g.pending().cloned() {
        if g.replies().len() >= 40 * (chain.len() + 1)
            && let Some(s) = g.snapshot(mark)
        {
            mark = s.end();
            chain.push(s);
        }
        let r = agents[req.player.idx()].decide(&Observation::for_player(&g, req.player), &req);
        g.answer(req.player, r).unwrap();
    }
    assert!(chain.len() >= 2);
    (g.record(), chain)
}

#[test]
fn snapshots_that_do_not_fit_are_refused() {
    let (record, chain) = sample();
    let full = Game::replay(&record).unwrap();
    assert_eq!(
        Game::restore(&record, &chain).unwrap().digest(),
        full.digest()
    );
    assert_eq!(Game::restore(&record, &[]).err(), Some(RestoreError::Empty));

    let mut old = chain.clone();
    old[0].version = SNAPSHOT_VERSION + 1;
    assert_eq!(
        Game::restore(&record, &old).err(),
        Some(RestoreError::Version {
            found: SNAPSHOT_VERSION + 1
        })
    );
    let mut rules = chain.clone();
    rules.last_mut().unwrap().rules = 1;
    assert!(matches!(
        Game::restore(&record, &rules),
        Err(RestoreError::Rules {
            snapshot: 1,
            game: 2
        })
    ));
    // A missing link: the last snapshot's history does not start where the first ends.
    let gap = [chain[0].clone(), chain[2.min(chain.len() - 1)].clone()];
    if chain.len() > 2 {
        assert!(matches!(
            Game::restore(&record, &gap),
            Err(RestoreError::Gap { .. })
        ));
    }
    assert!(matches!(
        Game::restore(&record, &chain[1..]),
        Err(RestoreError::Gap { .. })
    ));
    // A state that does not match its digest (a card changed).
    let mut corrupt = chain.clone();
    let last = corrupt.last_mut().unwrap();
    last.state.trash.push(CardId::Copper);
    assert!(matches!(
        Game::restore(&record, &corrupt),
        Err(RestoreError::Digest { .. })
    ));
    // A record shorter than the snapshot.
    let short = truncated(&record, 3);
    assert!(matches!(
        Game::restore(&short, &chain),
        Err(RestoreError::BeyondLog { .. })
    ));
    // Unknown fields are refused by the format.
    let mut value = serde_json::to_value(&chain[0]).unwrap();
    value["state"]["extra"] = serde_json::json!(1);
    assert!(serde_json::from_value::<Snapshot>(value).is_err());
}

/// The format is by names: a pinned snapshot's JSON keys (a change here is a change of
/// the published format and raises `SNAPSHOT_VERSION`).
#[test]
fn the_format_is_by_names() {
    let (_, chain) = sample();
    let v = serde_json::to_value(&chain[0]).unwrap();
    let keys =
        |v: &serde_json::Value| -> Vec<String> { v.as_object().unwrap().keys().cloned().collect() };
    assert_eq!(
        keys(&v),
        [
            "digest", "history", "own", "replies", "rules", "settled", "state", "version"
        ]
    );
    assert_eq!(
        keys(&v["state"]),
        [
            "current",
            "edition",
            "game_over",
            "passes",
            "players",
            "rng",
            "supply",
            "trash",
            "turn",
            "turn_count"
        ]
    );
    assert_eq!(v["state"]["edition"], "2e");
    assert_eq!(v["state"]["supply"][0]["card"], "copper");
    assert_eq!(v["state"]["rng"]["algorithm"], "chacha8");
    assert_eq!(v["version"], 1);
}
