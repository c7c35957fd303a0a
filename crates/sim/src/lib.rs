//! The simulator: plays many games between built-in bots and reports how each bot fares.
//!
//! [`run`] is a plain function of a [`Config`] so it can be tested without the binary.
//! Every game's seed and every bot's seed are derived from (`--seed`, game index) alone,
//! and per-game results are aggregated in game order, so a run reproduces exactly
//! whatever the thread count.
//!
//! Seats rotate between games (see [`seating`]) because the first player has an edge in
//! Dominion: without rotation a bot's win rate would partly measure its seat.

pub mod aggregate;
pub mod analyse;
pub mod bench;
pub mod cli;
pub mod kingdoms;
pub mod report;
pub mod think;
pub mod tournament;
pub mod wilson;

use aggregate::{GameResult, Outcome, Summary};
use dominion_engine::{Agent, Edition, Game, Kingdom, Setup, SetupError, bots};
use rayon::prelude::*;
use std::time::Instant;

/// Everything a simulation run depends on. Two runs with equal configs (apart from
/// `threads`) give identical results.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// Bot names as given, in order; a name may repeat (mirror matches).
    pub bots: Vec<String>,
    pub games: u64,
    pub seed: u64,
    /// Worker threads in the dedicated pool (at least 1).
    pub threads: usize,
    pub kingdom: Kingdom,
    pub edition: Edition,
    /// How long the searching bot may think per decision.
    pub think: think::ThinkBudget,
}

/// Why a run could not start.
#[derive(Debug, thiserror::Error)]
pub enum SimError {
    #[error("unknown bot {name:?}; valid bots: {}", bots::NAMES.join(", "))]
    UnknownBot { name: String },
    #[error("--bots needs 2 to 6 comma-separated bot names, got {0}")]
    BotCount(usize),
    #[error("--games must be at least 1")]
    NoGames,
    #[error("--threads must be at least 1")]
    NoThreads,
    #[error("bad kingdom: {0}")]
    Setup(#[from] SetupError),
    #[error("a tournament needs at least one pairing: --bots A,B or --bots A --vs B")]
    NoPairings,
    #[error("no recommended kingdom {0:?}; see --help for the list")]
    UnknownKingdom(String),
    #[error("bad --kingdoms: {0}")]
    BadKingdom(String),
    #[error("a tournament table has 2 to 4 players, not {0}")]
    TablePlayers(u8),
    #[error("could not start worker threads: {0}")]
    ThreadPool(String),
    #[error("bench: {0}")]
    Bench(String),
}

impl Config {
    /// The engine setup every game of the run uses.
    pub fn setup(&self) -> Setup {
        Setup {
            // Cannot truncate once `validate` has bounded the count to 2..=6; a larger
            // count saturates so the engine reports it instead of wrapping.
            players: u8::try_from(self.bots.len()).unwrap_or(u8::MAX),
            kingdom: self.kingdom.clone(),
            edition: self.edition,
        }
    }

    /// Checks everything that could make a game fail to start, so that a run either
    /// refuses up front or plays every game.
    pub fn validate(&self) -> Result<(), SimError> {
        if !(2..=6).contains(&self.bots.len()) {
            return Err(SimError::BotCount(self.bots.len()));
        }
        if let Some(name) = self
            .bots
            .iter()
            .find(|b| !bots::NAMES.contains(&b.as_str()))
        {
            return Err(SimError::UnknownBot { name: name.clone() });
        }
        if self.games == 0 {
            return Err(SimError::NoGames);
        }
        if self.threads == 0 {
            return Err(SimError::NoThreads);
        }
        self.setup().validate()?;
        Ok(())
    }
}

const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

/// SplitMix64's finaliser: turns structured inputs (seed, index) into well-spread seeds.
pub fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(GOLDEN);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The engine seed of game `index`: depends only on the run seed and the index, never
/// on which thread plays the game or when.
pub fn game_seed(seed: u64, index: u64) -> u64 {
    splitmix64(seed ^ index.wrapping_mul(GOLDEN))
}

/// The seed for bot number `bot` (position in `--bots`) in a game with `game_seed`.
/// Keyed by bot, not seat, so a bot's randomness does not depend on where it sits.
pub fn bot_seed(game_seed: u64, bot: usize) -> u64 {
    splitmix64(game_seed ^ (bot as u64 + 1).wrapping_mul(0xD1B5_4A32_D192_ED03))
}

/// Which bot sits in each seat of game `index` among `n` bots: `result[seat] = bot`.
///
/// Bot `j` sits at seat `(j + index) % n`, so over any `n` consecutive games every bot
/// plays every seat exactly once.
pub fn seating(index: u64, n: usize) -> Vec<usize> {
    let shift = (index % n as u64) as usize;
    (0..n).map(|seat| (seat + n - shift) % n).collect()
}

/// One agent per seat.
type Agents = Vec<Box<dyn Agent + Send>>;

/// The agents of game `index` of a series seeded by `run_seed` between the bots `names`,
/// one per seat, and which bot sits in each seat (`seats[seat]` = position in `names`).
fn seat_agents(
    names: &[String],
    run_seed: u64,
    index: u64,
    thinking: &bots::Thinking,
) -> Result<(Agents, Vec<usize>), SimError> {
    let seed = game_seed(run_seed, index);
    let seats = seating(index, names.len());
    let agents = seats
        .iter()
        .map(|&bot| {
            let name = &names[bot];
            bots::by_name_thinking(name, bot_seed(seed, bot), thinking)
                .ok_or_else(|| SimError::UnknownBot { name: name.clone() })
        })
        .collect::<Result<_, _>>()?;
    Ok((agents, seats))
}

/// How a finished game went for the bots (`seats[seat]` = bot).
fn result_of(game: &Game, seats: &[usize]) -> GameResult {
    let scores = game.scores();
    let rounds = scores.iter().map(|s| s.turns).max().unwrap_or(0);
    // Scores are indexed by seat; translate to bots.
    let winners: Vec<usize> = scores
        .iter()
        .filter(|s| s.winner)
        .map(|s| seats[s.player.idx()])
        .collect();
    let outcome = match winners.as_slice() {
        [bot] => Outcome::Win(*bot),
        _ => Outcome::Tie,
    };
    GameResult { outcome, rounds }
}

/// Plays game `index` of the run to the end and reports it per bot.
fn play_one(config: &Config, setup: &Setup, index: u64) -> Result<GameResult, SimError> {
    play_game(
        &config.bots,
        setup,
        config.seed,
        index,
        &config.think.thinking(),
    )
}

/// Plays game `index` of a series seeded by `run_seed` between the bots `names` (seated
/// by [`seating`]) and reports it per bot (positions in `names`). Shared by [`run`] and
/// the tournament, so both derive seeds and seats the same way.
pub fn play_game(
    names: &[String],
    setup: &Setup,
    run_seed: u64,
    index: u64,
    thinking: &bots::Thinking,
) -> Result<GameResult, SimError> {
    let (mut agents, seats) = seat_agents(names, run_seed, index, thinking)?;
    let mut game = Game::new_unrecorded(setup, game_seed(run_seed, index))?;
    game.play_out(&mut agents);
    Ok(result_of(&game, &seats))
}

/// Plays game `index` like [`play_game`] and returns every winner (positions in
/// `names`, in seat order) and the rounds played: a tournament table seats copies of a
/// bot, and a win they share is still a loss for the bot they play against.
pub fn play_game_winners(
    names: &[String],
    setup: &Setup,
    run_seed: u64,
    index: u64,
    thinking: &bots::Thinking,
) -> Result<(Vec<usize>, u32), SimError> {
    let (mut agents, seats) = seat_agents(names, run_seed, index, thinking)?;
    let mut game = Game::new_unrecorded(setup, game_seed(run_seed, index))?;
    game.play_out(&mut agents);
    let scores = game.scores();
    let rounds = scores.iter().map(|s| s.turns).max().unwrap_or(0);
    let winners = scores
        .iter()
        .filter(|s| s.winner)
        .map(|s| seats[s.player.idx()])
        .collect();
    Ok((winners, rounds))
}

/// A dedicated pool of `threads` worker threads named `name-N`, so a run neither
/// competes with nor depends on rayon's global pool.
pub(crate) fn pool(threads: usize, name: &'static str) -> Result<rayon::ThreadPool, SimError> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(move |i| format!("{name}-{i}"))
        .build()
        .map_err(|e| SimError::ThreadPool(e.to_string()))
}

/// Runs the simulation; see [`run_with_progress`].
pub fn run(config: &Config) -> Result<Summary, SimError> {
    run_with_progress(config, || {})
}

/// Runs the simulation on a dedicated pool of `config.threads` threads (so it neither
/// competes with nor depends on rayon's global pool), calling `on_game` after each game.
///
/// `games_per_sec` is the only part of the summary that varies between equal configs.
pub fn run_with_progress(config: &Config, on_game: impl Fn() + Sync) -> Result<Summary, SimError> {
    config.validate()?;
    let setup = config.setup();
    let pool = pool(config.threads, "sim")?;
    let start = Instant::now();
    // `collect` keeps game order, so aggregation sees the same sequence on any pool.
    let results: Vec<GameResult> = pool.install(|| {
        (0..config.games)
            .into_par_iter()
            .map(|i| {
                let r = play_one(config, &setup, i);
                on_game();
                r
            })
            .collect::<Result<_, _>>()
    })?;
    let elapsed = start.elapsed().as_secs_f64();
    Ok(aggregate::summarize(&config.bots, &results, elapsed))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seats_rotate_so_every_bot_plays_every_seat_equally() {
        for n in 2..=6 {
            // seat_count[bot][seat]
            let mut seat_count = vec![vec![0u32; n]; n];
            for game in 0..(n as u64 * 7) {
                let seats = seating(game, n);
                let mut sorted = seats.clone();
                sorted.sort_unstable();
                assert_eq!(
                    sorted,
                    (0..n).collect::<Vec<_>>(),
                    "game {game}: not a permutation"
                );
                for (seat, &bot) in seats.iter().enumerate() {
                    assert_eq!(seat, (bot + game as usize) % n, "bot j sits at (j + i) % n");
                    seat_count[bot][seat] += 1;
                }
            }
            assert!(
                seat_count.iter().flatten().all(|&c| c == 7),
                "{n} bots: {seat_count:?}"
            );
        }
    }

    #[test]
    fn first_game_keeps_command_line_order() {
        assert_eq!(seating(0, 3), vec![0, 1, 2]);
        assert_eq!(seating(1, 3), vec![2, 0, 1]);
    }

    #[test]
    fn seeds_differ_per_game_and_bot() {
        assert_ne!(game_seed(0, 0), game_seed(0, 1));
        assert_ne!(game_seed(0, 1), game_seed(1, 1));
        let g = game_seed(5, 9);
        assert_ne!(bot_seed(g, 0), bot_seed(g, 1));
        assert_eq!(game_seed(5, 9), g, "pure function");
    }

    fn config(bots: &[&str], games: u64, threads: usize) -> Config {
        Config {
            bots: bots.iter().map(|s| s.to_string()).collect(),
            games,
            seed: 3,
            threads,
            kingdom: Kingdom::Cards(cli::default_kingdom()),
            edition: Edition::Second,
            think: think::ThinkBudget::default(),
        }
    }

    #[test]
    fn results_do_not_depend_on_thread_count() {
        let one = run(&config(&["big_money", "smithy", "random"], 30, 1)).unwrap();
        let two = run(&config(&["big_money", "smithy", "random"], 30, 2)).unwrap();
        assert_eq!(one.bots, two.bots);
        assert_eq!((one.ties, one.mean_rounds), (two.ties, two.mean_rounds));
        assert_eq!(one.bots.iter().map(|b| b.wins).sum::<u64>() + one.ties, 30);
    }

    #[test]
    fn bad_configs_are_refused() {
        assert!(matches!(
            run(&config(&["big_money"], 1, 1)),
            Err(SimError::BotCount(1))
        ));
        assert!(matches!(
            run(&config(&["big_money"; 7], 1, 1)),
            Err(SimError::BotCount(7))
        ));
        assert!(matches!(
            run(&config(&["big_money", "nope"], 1, 1)),
            Err(SimError::UnknownBot { .. })
        ));
        assert!(matches!(
            run(&config(&["big_money"; 2], 0, 1)),
            Err(SimError::NoGames)
        ));
        assert!(matches!(
            run(&config(&["big_money"; 2], 1, 0)),
            Err(SimError::NoThreads)
        ));
        let mut c = config(&["big_money"; 2], 1, 1);
        c.kingdom = Kingdom::Recommended("nope/nope".into());
        assert!(matches!(run(&c), Err(SimError::Setup(_))));
    }
}
