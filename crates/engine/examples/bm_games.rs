//! A fixed number of Big Money mirror games down one of the engine's two paths, and
//! nothing else: the process to count instructions of (`valgrind --tool=callgrind`),
//! which no machine load changes. `dominion-sim --bench` plays both paths in one run and
//! times them; this plays one, so a whole process's count is one path's.
//!
//! `cargo run --release -p dominion-engine --example bm_games -- unrecorded|recorded GAMES`
//!
//! - `unrecorded`: `Game::new_unrecorded` + `play_out`, the simulator's path;
//! - `recorded`: `Game::new` + one `Game::answer` per decision, as a server room drives
//!   a game (`pending`, `Observation::for_player`, `decide`, `answer`).
//!
//! Seeds and seats are derived as the simulator derives them (`--seed 0`, bots
//! `big_money,big_money`, the default kingdom), so game `i` here is game `i` of `dominion-sim --bench`.
//! Instructions per game = (count at GAMES − count at 0 games) / GAMES (docs/load.md).
//! It prints the games' total turns and a checksum of the final scores, so two builds
//! can be seen to play the same games.

use dominion_engine::{Agent, Edition, Game, Kingdom, Observation, Setup, bots};

/// mimalloc, as the server and `dominion-sim` allocate (docs/load.md, *Engine
/// instructions per game*): a recorded game's events and replies are many small
/// allocations, and this counts what the server's path costs there.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

/// dominion-sim's `splitmix64`.
fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(GOLDEN);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// dominion-sim's `game_seed` and `bot_seed`.
fn game_seed(seed: u64, index: u64) -> u64 {
    splitmix64(seed ^ index.wrapping_mul(GOLDEN))
}
fn bot_seed(game_seed: u64, bot: usize) -> u64 {
    splitmix64(game_seed ^ (bot as u64 + 1).wrapping_mul(0xD1B5_4A32_D192_ED03))
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let path = args.get(1).map(String::as_str).unwrap_or("unrecorded");
    let games: u64 = args.get(2).map_or(2000, |s| s.parse().expect("GAMES"));
    let recorded = match path {
        "unrecorded" => false,
        "recorded" => true,
        other => panic!("path is unrecorded or recorded, not {other:?}"),
    };
    // dominion-sim's default kingdom and edition.
    let cards = dominion_engine::setup::BENCH_KINGDOM;
    let setup = Setup {
        players: 2,
        kingdom: Kingdom::Cards(cards.iter().map(|c| c.parse().expect("a card")).collect()),
        edition: Edition::Second,
    };
    let (mut turns, mut check) = (0u64, 0u64);
    for i in 0..games {
        let seed = game_seed(0, i);
        // Two copies of one bot: seating only permutes equal agents.
        let mut agents: Vec<Box<dyn Agent + Send>> = (0..2)
            .map(|b| bots::by_name("big_money", bot_seed(seed, b)).expect("big_money"))
            .collect();
        let game = if recorded {
            let mut game = Game::new(&setup, seed).expect("setup");
            while let Some(req) = game.pending() {
                let p = req.player;
                let reply = agents[p.idx()].decide(&Observation::for_player(&game, p), req);
                game.answer(p, reply).expect("a bot's reply is valid");
            }
            game
        } else {
            let mut game = Game::new_unrecorded(&setup, seed).expect("setup");
            game.play_out(&mut agents);
            game
        };
        for s in game.scores() {
            turns += u64::from(s.turns);
            check = check
                .rotate_left(7)
                .wrapping_add(s.vp as u64 ^ u64::from(s.winner));
        }
    }
    println!("{path}: {games} games, {turns} turns, scores checksum {check:016x}");
}
