//! What the search bot costs and how it does: plays games of `search` against the
//! playout policy (`standard`) and prints playouts per second, the thinking time per
//! searched decision (mean, p99) and the search bot's win rate.
//!
//! `cargo run --release -p dominion-engine --example search_cost -- \
//!     [--games N] [--playouts N] [--players N] [--kingdom ID|random|all] [--seed N]`
//!
//! `--kingdom all` plays `--games` games on every recommended kingdom and prints each
//! kingdom's win rate and their average. Runs on one thread, so the times are one
//! core's (on a shared machine they include waiting for it). Thinking has no clock here:
//! each searched decision spends its whole playout budget.

use dominion_engine::bots::{self, SearchBot, Thinking};
use dominion_engine::setup::recommended_kingdoms;
use dominion_engine::{Agent, Edition, Game, Kingdom, Observation, Reply, Request, Setup};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// mimalloc, as the server and `dominion-sim` allocate (docs/load.md, *Engine
/// instructions per game*): a recorded game's events and replies are many small
/// allocations, and this counts what the server's path costs there.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Times each searched decision of the bot it wraps.
struct Timed {
    bot: SearchBot,
    log: Arc<Mutex<Vec<(f64, u32)>>>,
}

impl Agent for Timed {
    fn name(&self) -> &str {
        "search"
    }
    fn decide(&mut self, obs: &Observation, req: &Request) -> Reply {
        let t = Instant::now();
        let r = self.bot.decide(obs, req);
        if let Some(s) = self.bot.last_search() {
            let secs = t.elapsed().as_secs_f64();
            self.log.lock().unwrap().push((secs, s.playouts));
        }
        r
    }
}

fn arg(args: &[String], name: &str) -> Option<String> {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1).cloned())
}

/// The search bot's share of wins (ties shared) over `games` games of `setup`.
fn play(
    setup: &Setup,
    games: u64,
    seed: u64,
    thinking: &Thinking,
    log: &Arc<Mutex<Vec<(f64, u32)>>>,
) -> f64 {
    let players = setup.players;
    let mut wins = 0.0;
    for g in 0..games {
        let game_seed = seed.wrapping_mul(1_000_003).wrapping_add(g);
        let mut game = Game::new_unrecorded(setup, game_seed).expect("setup");
        // The search bot's seat rotates.
        let me = (g % u64::from(players)) as usize;
        let mut agents: Vec<Box<dyn Agent + Send>> = (0..players as usize)
            .map(|i| {
                let s = game_seed ^ (i as u64 + 1).wrapping_mul(0x9e37_79b9);
                if i == me {
                    Box::new(Timed {
                        bot: SearchBot::new(s, thinking.clone()),
                        log: log.clone(),
                    }) as Box<dyn Agent + Send>
                } else {
                    bots::by_name("standard", s).expect("standard")
                }
            })
            .collect();
        game.play_out(&mut agents);
        let scores = game.scores();
        let winners = scores.iter().filter(|s| s.winner).count() as f64;
        if scores[me].winner {
            wins += 1.0 / winners;
        }
    }
    wins / games as f64
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games: u64 = arg(&args, "--games").map_or(20, |s| s.parse().expect("--games N"));
    let players: u8 = arg(&args, "--players").map_or(2, |s| s.parse().expect("--players N"));
    let seed: u64 = arg(&args, "--seed").map_or(1, |s| s.parse().expect("--seed N"));
    let thinking = arg(&args, "--playouts").map_or_else(Thinking::default, |s| {
        Thinking::playouts(s.parse().expect("--playouts N"))
    });
    let kingdoms: Vec<(String, Kingdom, Edition)> = match arg(&args, "--kingdom").as_deref() {
        Some("all") => recommended_kingdoms()
            .map(|r| {
                let edition = if r.id.contains("_1e/") {
                    Edition::First
                } else {
                    Edition::Second
                };
                (r.id.to_string(), Kingdom::Recommended(r.id.into()), edition)
            })
            .collect(),
        Some("random") => vec![("random".into(), Kingdom::Random, Edition::Second)],
        id => {
            let id = id.unwrap_or("base_2e/first_game");
            let edition = if id.contains("_1e/") {
                Edition::First
            } else {
                Edition::Second
            };
            vec![(id.into(), Kingdom::Recommended(id.into()), edition)]
        }
    };
    let log = Arc::new(Mutex::new(Vec::new()));
    let started = Instant::now();
    let mut rates = Vec::new();
    for (name, kingdom, edition) in kingdoms {
        let setup = Setup {
            players,
            kingdom,
            edition,
        };
        let rate = play(&setup, games, seed, &thinking, &log);
        println!("{name:32} search won {:5.1}%", 100.0 * rate);
        rates.push(rate);
    }
    let elapsed = started.elapsed().as_secs_f64();
    let log = log.lock().unwrap();
    let mut times: Vec<f64> = log.iter().map(|(t, _)| *t).collect();
    let playouts: u64 = log.iter().map(|(_, p)| u64::from(*p)).sum();
    times.sort_by(f64::total_cmp);
    let thinking_secs: f64 = times.iter().sum();
    let n = times.len().max(1);
    let p99 = times
        .get((n * 99).div_ceil(100) - 1)
        .copied()
        .unwrap_or(0.0);
    println!(
        "{} kingdom(s) × {games} games, {players} players, {thinking:?}: search won {:.1}% on average (ties shared)",
        rates.len(),
        100.0 * rates.iter().sum::<f64>() / rates.len().max(1) as f64
    );
    println!(
        "searched decisions: {}, playouts: {playouts} ({:.0}/s of thinking), mean {:.1} ms, p99 {:.1} ms; wall {elapsed:.1} s",
        times.len(),
        playouts as f64 / thinking_secs.max(1e-9),
        1e3 * thinking_secs / n as f64,
        1e3 * p99,
    );
}
