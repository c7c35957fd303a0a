//! What reopening a long game costs, by the whole replay and from snapshots
//! (`dominion_engine::snapshot`; figures in docs/load.md, "Reopen from snapshots").
//!
//! `cargo run --release -p dominion-engine --example reopen -- [--turn N] [--rooms N] [--every N]`
//!
//! Plays 6-player games of `random` bots (whose games last long) on random kingdoms of every card until the
//! game's turn counter reaches `--turn` (default 100, all seats' turns together),
//! taking a snapshot at the first turn start `--every` replies (default 50, the server's
//! `--snapshot-every`) after the last one, each kept as JSON text as the store keeps it.
//! Then times, for one such game (median of 21 runs) and for `--rooms` of them (default
//! 200, one after the other, as a node's recovery rebuilds them): decoding the record
//! and replaying it whole, against decoding the record and the snapshots and restoring
//! from them plus the replies after the last. The store's reads are not included. One
//! thread; on a shared machine, note the load average next to the figures.

use dominion_engine::setup::CardPool;
use dominion_engine::snapshot::{Mark, Snapshot};
use dominion_engine::{Edition, Game, GameRecord, Kingdom, Observation, Setup, bots};
use std::time::Instant;

struct Stored {
    turn: u32,
    record: String,
    snapshots: Vec<String>,
    digest: u64,
    replies: usize,
}

fn arg(name: &str, default: u64) -> u64 {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .map_or(default, |v| v.parse().expect("a number"))
}

fn play(seed: u64, turn: u32, every: u64) -> Stored {
    let setup = Setup {
        players: 6,
        kingdom: Kingdom::RandomFrom(CardPool::Both),
        edition: Edition::Second,
    };
    let mut g = Game::new(&setup, seed).unwrap();
    let mut agents: Vec<_> = (0..6)
        .map(|i| bots::by_name("random", seed * 7 + i).unwrap())
        .collect();
    let mut snapshots = Vec::new();
    let mut mark = Mark::default();
    while let Some(req) = g.pending().cloned() {
        if g.state().turn_count >= turn && g.at_snapshot_point() {
            break;
        }
        if g.replies().len() as u64 >= mark.replies + every
            && let Some(s) = g.snapshot(mark)
        {
            mark = s.end();
            snapshots.push(serde_json::to_string(&s).unwrap());
        }
        let r = agents[req.player.idx()].decide(&Observation::for_player(&g, req.player), &req);
        g.answer(req.player, r).unwrap();
    }
    Stored {
        turn: g.state().turn_count,
        record: serde_json::to_string(&g.record()).unwrap(),
        snapshots,
        digest: g.digest(),
        replies: g.replies().len(),
    }
}

fn replay(s: &Stored) -> Game {
    let record: GameRecord = serde_json::from_str(&s.record).unwrap();
    Game::replay(&record).unwrap()
}

fn restore(s: &Stored) -> Game {
    let record: GameRecord = serde_json::from_str(&s.record).unwrap();
    let chain: Vec<Snapshot> = s
        .snapshots
        .iter()
        .map(|t| serde_json::from_str(t).unwrap())
        .collect();
    Game::restore(&record, &chain).unwrap()
}

fn ms(f: impl FnOnce()) -> f64 {
    let t = Instant::now();
    f();
    t.elapsed().as_secs_f64() * 1e3
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let turn = arg("--turn", 100) as u32;
    let rooms = arg("--rooms", 200);
    let every = arg("--every", 50);
    let games: Vec<Stored> = (0..rooms).map(|i| play(1000 + i, turn, every)).collect();
    let one = &games[0];
    for s in &games {
        assert_eq!(replay(s).digest(), s.digest);
        assert_eq!(restore(s).digest(), s.digest);
    }
    let bytes: usize = one.snapshots.iter().map(String::len).sum();
    println!(
        "one game: 6 players, turn {} (asked {turn}), {} replies, {} snapshots ({} KiB of JSON, the last {} KiB), record {} KiB",
        one.turn,
        one.replies,
        one.snapshots.len(),
        bytes / 1024,
        one.snapshots.last().map_or(0, String::len) / 1024,
        one.record.len() / 1024
    );
    let full = median(
        (0..21)
            .map(|_| ms(|| drop(std::hint::black_box(replay(one)))))
            .collect(),
    );
    let snap = median(
        (0..21)
            .map(|_| ms(|| drop(std::hint::black_box(restore(one)))))
            .collect(),
    );
    println!("reopen one game: full replay {full:.2} ms, from snapshots {snap:.2} ms");
    let record: GameRecord = serde_json::from_str(&one.record).unwrap();
    let parse = median(
        (0..21)
            .map(|_| {
                ms(|| {
                    let chain: Vec<Snapshot> = one
                        .snapshots
                        .iter()
                        .map(|t| serde_json::from_str(t).unwrap())
                        .collect();
                    drop(std::hint::black_box(chain));
                })
            })
            .collect(),
    );
    let chain: Vec<Snapshot> = one
        .snapshots
        .iter()
        .map(|t| serde_json::from_str(t).unwrap())
        .collect();
    let only = median(
        (0..21)
            .map(|_| {
                ms(|| {
                    drop(std::hint::black_box(
                        Game::restore(&record, &chain).unwrap(),
                    ))
                })
            })
            .collect(),
    );
    println!("  of which: parsing the snapshots {parse:.2} ms, Game::restore {only:.2} ms");
    let replies: usize = games.iter().map(|g| g.replies).sum();
    let full = ms(|| {
        games
            .iter()
            .for_each(|g| drop(std::hint::black_box(replay(g))))
    });
    let snap = ms(|| {
        games
            .iter()
            .for_each(|g| drop(std::hint::black_box(restore(g))))
    });
    println!(
        "reopen {rooms} such games ({replies} replies): full replay {full:.0} ms, from snapshots {snap:.0} ms"
    );
}
