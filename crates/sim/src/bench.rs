//! `--bench`: the engine benchmark. The same games (same seeds, same bots) are played on
//! the calling thread twice, once down each of the engine's two paths:
//!
//! - *unrecorded*: `Game::new_unrecorded` + `play_out`, the simulator's fast path, where
//!   the agents are asked as the turn runs;
//! - *recorded*: `Game::new` + one `Game::answer` per decision, exactly as the server
//!   drives a game (ask `pending()`, build `Observation::for_player`, `decide`,
//!   `answer`: the server reads new events from `events()`, so it does not take
//!   `Game::reply`'s copy of them), keeping the reply log and every event.
//!
//! Each is timed by the wall clock and by the thread's CPU time: on a shared machine
//! the wall clock varies with load, CPU time much less. Both paths must reach the same
//! result in every game; a difference is an engine bug and fails the run.

use crate::aggregate::{self, GameResult, Summary};
use crate::{Config, SimError, game_seed, result_of, seat_agents};
use dominion_engine::{Agent, Game, Observation, Setup};
use std::time::Instant;

/// How long one path took for all the games.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Timing {
    pub games: u64,
    pub wall_secs: f64,
    /// CPU time of the playing thread; None where the platform does not tell.
    pub cpu_secs: Option<f64>,
}

impl Timing {
    pub fn games_per_wall_sec(&self) -> f64 {
        self.games as f64 / self.wall_secs.max(1e-9)
    }
    pub fn games_per_cpu_sec(&self) -> Option<f64> {
        self.cpu_secs.map(|s| self.games as f64 / s.max(1e-9))
    }
}

/// The benchmark's outcome: the run's summary (from the unrecorded path; its
/// `games_per_sec` is that path's wall-clock speed) and both paths' timings.
#[derive(Clone, Debug, PartialEq)]
pub struct BenchReport {
    pub summary: Summary,
    pub unrecorded: Timing,
    pub recorded: Timing,
}

impl BenchReport {
    /// How many times longer the recorded path took than the unrecorded one, by CPU time
    /// where known, else by the wall clock.
    pub fn ratio(&self) -> f64 {
        match (self.recorded.cpu_secs, self.unrecorded.cpu_secs) {
            (Some(r), Some(u)) => r / u.max(1e-9),
            _ => self.recorded.wall_secs / self.unrecorded.wall_secs.max(1e-9),
        }
    }
}

/// Plays `config.games` games down each path on this thread (`config.threads` is
/// ignored) and checks that both paths agree on every game.
pub fn run(config: &Config) -> Result<BenchReport, SimError> {
    config.validate()?;
    let setup = config.setup();
    let (unrecorded_results, unrecorded) = timed(config, |i| crate::play_one(config, &setup, i))?;
    let (recorded_results, recorded) = timed(config, |i| play_recorded(config, &setup, i))?;
    if let Some(i) =
        (0..unrecorded_results.len()).find(|&i| unrecorded_results[i] != recorded_results[i])
    {
        return Err(SimError::Bench(format!(
            "game {i} ended differently on the recorded path: {:?} vs {:?}",
            recorded_results[i], unrecorded_results[i]
        )));
    }
    let summary = aggregate::summarize(&config.bots, &unrecorded_results, unrecorded.wall_secs);
    Ok(BenchReport {
        summary,
        unrecorded,
        recorded,
    })
}

/// Plays every game with `play` and times the whole.
fn timed(
    config: &Config,
    mut play: impl FnMut(u64) -> Result<GameResult, SimError>,
) -> Result<(Vec<GameResult>, Timing), SimError> {
    let cpu = thread_cpu_secs();
    let wall = Instant::now();
    let results = (0..config.games)
        .map(&mut play)
        .collect::<Result<Vec<_>, _>>()?;
    let wall_secs = wall.elapsed().as_secs_f64();
    let cpu_secs = match (cpu, thread_cpu_secs()) {
        (Some(a), Some(b)) => Some(b - a),
        _ => None,
    };
    Ok((
        results,
        Timing {
            games: config.games,
            wall_secs,
            cpu_secs,
        },
    ))
}

/// Plays game `index` as the server would: one `answer` per decision.
fn play_recorded(config: &Config, setup: &Setup, index: u64) -> Result<GameResult, SimError> {
    let thinking = config.think.thinking();
    let (mut agents, seats) = seat_agents(&config.bots, config.seed, index, &thinking)?;
    let mut game = Game::new(setup, game_seed(config.seed, index))?;
    while let Some(req) = game.pending() {
        let p = req.player;
        let agent: &mut Box<dyn Agent + Send> = &mut agents[p.idx()];
        let reply = agent.decide(&Observation::for_player(&game, p), req);
        game.answer(p, reply)
            .map_err(|e| SimError::Bench(format!("{} gave an invalid reply: {e}", agent.name())))?;
    }
    Ok(result_of(&game, &seats))
}

/// CPU time this thread has used, in seconds.
#[cfg(unix)]
fn thread_cpu_secs() -> Option<f64> {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec; the call only writes it.
    let ok = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) } == 0;
    ok.then_some(ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9)
}

#[cfg(not(unix))]
fn thread_cpu_secs() -> Option<f64> {
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use dominion_engine::{Edition, Kingdom};

    #[test]
    fn both_paths_play_the_same_games() {
        let config = Config {
            bots: vec!["smithy".into(), "witch".into(), "militia".into()],
            games: 6,
            seed: 11,
            threads: 1,
            kingdom: Kingdom::Cards(crate::cli::default_kingdom()),
            edition: Edition::Second,
            think: crate::think::ThinkBudget::default(),
        };
        let report = run(&config).unwrap();
        assert_eq!(report.summary, {
            let mut s = crate::run(&config).unwrap();
            s.games_per_sec = report.summary.games_per_sec;
            s
        });
        assert_eq!((report.unrecorded.games, report.recorded.games), (6, 6));
        assert!(
            report.recorded.cpu_secs.is_some(),
            "CPU time is known on unix"
        );
    }

    #[test]
    fn the_ratio_prefers_cpu_time() {
        let t = |wall_secs, cpu_secs| Timing {
            games: 10,
            wall_secs,
            cpu_secs,
        };
        let report = |u, r| BenchReport {
            summary: aggregate::summarize(&["a".into(), "b".into()], &[], 1.0),
            unrecorded: u,
            recorded: r,
        };
        assert_eq!(report(t(1.0, Some(2.0)), t(9.0, Some(3.0))).ratio(), 1.5);
        assert_eq!(report(t(1.0, None), t(4.0, Some(3.0))).ratio(), 4.0);
        assert_eq!(t(2.0, Some(0.5)).games_per_wall_sec(), 5.0);
        assert_eq!(t(2.0, Some(0.5)).games_per_cpu_sec(), Some(20.0));
    }
}
