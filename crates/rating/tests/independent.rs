//! Our Glicko-2 against an independent implementation (the `skillratings` crate) over
//! 1,000 random games of 2 to 4 players with ties: the same arithmetic written by someone
//! else must give the same ratings, or one of us misread the paper.

use dominion_rating::{Pool, Rating, pair_score, rate_game};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2_rating_period};

fn theirs(r: Rating) -> Glicko2Rating {
    Glicko2Rating {
        rating: r.rating,
        deviation: r.deviation,
        volatility: r.volatility,
    }
}

fn outcome(score: f64) -> Outcomes {
    match score {
        1.0 => Outcomes::WIN,
        0.0 => Outcomes::LOSS,
        _ => Outcomes::DRAW,
    }
}

/// Rates one game the independent way: each player's period is every other player of the
/// game, at their pre-game ratings, with the pairwise outcome.
fn their_game(pool: Pool, players: &[(Rating, u32)]) -> Vec<Rating> {
    let config = Glicko2Config {
        tau: pool.tau(),
        convergence_tolerance: 0.000_001,
    };
    players
        .iter()
        .enumerate()
        .map(|(i, (me, place))| {
            let results: Vec<(Glicko2Rating, Outcomes)> = players
                .iter()
                .enumerate()
                .filter(|(j, _)| *j != i)
                .map(|(_, (them, their_place))| {
                    (theirs(*them), outcome(pair_score(*place, *their_place)))
                })
                .collect();
            let after = glicko2_rating_period(&theirs(*me), &results, &config);
            Rating {
                rating: after.rating,
                deviation: after.deviation,
                volatility: after.volatility,
            }
        })
        .collect()
}

#[test]
fn a_thousand_random_games_agree_with_skillratings() {
    let mut rng = ChaCha8Rng::seed_from_u64(25);
    // Two populations, rated by us and by them, each game from its own side's ratings:
    // differences would add up over the games if either side were off.
    let mut ours = vec![Rating::DEFAULT; 40];
    let strength: Vec<f64> = (0..ours.len())
        .map(|_| rng.random_range(0.0..4.0))
        .collect();
    let mut other = ours.clone();
    let (mut worst_step, mut worst_drift) = (0.0f64, 0.0f64);
    let mut ties = 0;
    for _ in 0..1_000 {
        let n = rng.random_range(2..=4usize);
        let pool = if n == 2 {
            if rng.random_bool(0.5) {
                Pool::TwoPlayer
            } else {
                Pool::Bots
            }
        } else {
            Pool::Multiplayer
        };
        let mut seats: Vec<usize> = Vec::new();
        while seats.len() < n {
            let p = rng.random_range(0..ours.len());
            if !seats.contains(&p) {
                seats.push(p);
            }
        }
        // Places from hidden strengths plus luck, so ratings spread; about one game in
        // seven has a tie (a player shares the place of the one just ahead).
        let mut order: Vec<(f64, usize)> = (0..n)
            .map(|k| (strength[seats[k]] + rng.random_range(0.0..3.0), k))
            .collect();
        order.sort_by(|a, b| b.0.total_cmp(&a.0));
        let mut places = vec![0u32; n];
        for (rank, &(_, k)) in order.iter().enumerate() {
            places[k] = if rank > 0 && rng.random_bool(0.08) {
                places[order[rank - 1].1]
            } else {
                rank as u32 + 1
            };
        }
        if (0..n).any(|i| (0..i).any(|j| places[i] == places[j])) {
            ties += 1;
        }

        let mine: Vec<(Rating, u32)> = seats
            .iter()
            .zip(&places)
            .map(|(&p, &pl)| (ours[p], pl))
            .collect();
        let after = rate_game(pool, &mine).unwrap();
        // Step check: the same inputs to both.
        for (a, b) in after.iter().zip(their_game(pool, &mine)) {
            worst_step = worst_step.max(diff(*a, b));
        }
        let theirs_in: Vec<(Rating, u32)> = seats
            .iter()
            .zip(&places)
            .map(|(&p, &pl)| (other[p], pl))
            .collect();
        let their_after = their_game(pool, &theirs_in);
        for (k, &p) in seats.iter().enumerate() {
            ours[p] = after[k];
            other[p] = their_after[k];
        }
        for (a, b) in ours.iter().zip(&other) {
            worst_drift = worst_drift.max(diff(*a, *b));
        }
    }
    eprintln!(
        "1000 games ({ties} with ties): largest difference from skillratings for the same \
         inputs {worst_step:e}, between the two populations after all games {worst_drift:e}"
    );
    assert!(ties > 50, "the games should include ties ({ties})");
    assert!(worst_step < 1e-6, "{worst_step}");
    assert!(worst_drift < 1e-6, "{worst_drift}");
    // The populations moved: the check compared real changes.
    assert!(ours.iter().any(|r| (r.rating - 1500.0).abs() > 100.0));
}

/// The largest difference in rating, deviation (both on the Glicko scale) and
/// volatility, each relative to its size where that exceeds 1.
fn diff(a: Rating, b: Rating) -> f64 {
    let rel = |x: f64, y: f64| (x - y).abs() / x.abs().max(1.0);
    rel(a.rating, b.rating)
        .max(rel(a.deviation, b.deviation))
        .max(rel(a.volatility, b.volatility))
}
