//! Turning per-game results into the run's summary.
//!
//! Kept apart from game playing so the arithmetic (what counts as a win, a tie, a round)
//! can be checked on hand-made results.

use serde::{Deserialize, Serialize};

/// How one game ended, in terms of bots (positions in `--bots`), not seats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Exactly one winner.
    Win(usize),
    /// More than one player shared the win (equal VP and equal turns).
    Tie,
}

/// What the summary needs from one game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameResult {
    pub outcome: Outcome,
    /// The most turns any player took: the number of rounds played.
    pub rounds: u32,
}

/// One bot's line of the summary.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BotSummary {
    pub name: String,
    pub wins: u64,
    /// wins / games.
    pub win_rate: f64,
}

/// The result of a run; serialised as-is for `--json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    pub games: u64,
    /// In `--bots` order.
    pub bots: Vec<BotSummary>,
    pub ties: u64,
    /// ties / games.
    pub tie_rate: f64,
    pub mean_rounds: f64,
    /// Games per wall-clock second of the simulation itself (not start-up or output).
    pub games_per_sec: f64,
}

/// Sums `results` (in game order) for the bots `names`. Everything but `games_per_sec`
/// is a pure function of `results`; only integer counts are accumulated, so the order
/// could not change the figures anyway.
pub fn summarize(names: &[String], results: &[GameResult], elapsed_secs: f64) -> Summary {
    let mut wins = vec![0u64; names.len()];
    let mut ties = 0u64;
    let mut rounds = 0u64;
    for r in results {
        match r.outcome {
            Outcome::Win(bot) => wins[bot] += 1,
            Outcome::Tie => ties += 1,
        }
        rounds += u64::from(r.rounds);
    }
    let games = results.len() as u64;
    // An empty run would divide by zero; report zeros rather than NaN (which JSON lacks).
    let rate = |n: u64| {
        if games == 0 {
            0.0
        } else {
            n as f64 / games as f64
        }
    };
    Summary {
        games,
        bots: names
            .iter()
            .zip(wins)
            .map(|(name, wins)| BotSummary {
                name: name.clone(),
                wins,
                win_rate: rate(wins),
            })
            .collect(),
        ties,
        tie_rate: rate(ties),
        mean_rounds: rate(rounds),
        // A timer can read 0 for a tiny run; keep the figure finite.
        games_per_sec: games as f64 / elapsed_secs.max(1e-9),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wins_ties_and_rounds_are_counted_per_bot() {
        let names = vec!["a".to_string(), "b".to_string()];
        let results = [
            GameResult {
                outcome: Outcome::Win(0),
                rounds: 20,
            },
            GameResult {
                outcome: Outcome::Win(1),
                rounds: 18,
            },
            GameResult {
                outcome: Outcome::Tie,
                rounds: 22,
            },
            GameResult {
                outcome: Outcome::Win(0),
                rounds: 20,
            },
        ];
        let s = summarize(&names, &results, 2.0);
        assert_eq!(s.games, 4);
        assert_eq!((s.bots[0].wins, s.bots[1].wins, s.ties), (2, 1, 1));
        assert_eq!(
            (s.bots[0].win_rate, s.bots[1].win_rate, s.tie_rate),
            (0.5, 0.25, 0.25)
        );
        assert_eq!(s.mean_rounds, 20.0);
        assert_eq!(s.games_per_sec, 2.0);
        assert_eq!(s.bots[1].name, "b");
    }

    #[test]
    fn empty_run_has_finite_figures() {
        let s = summarize(&["a".into(), "b".into()], &[], 0.0);
        assert_eq!(
            (s.tie_rate, s.mean_rounds, s.games_per_sec),
            (0.0, 0.0, 0.0)
        );
    }
}
