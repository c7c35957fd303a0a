//! Glicko-2 ratings for Dominion games, exactly as Mark Glickman's "Example of the
//! Glicko-2 system" defines them, and nothing else: no engine, no storage, no clock.
//!
//! Why a crate of its own: the store applies a game's ratings inside the transaction that
//! records the game's end (so a crash never rates a game twice or not at all), the server
//! shows levels in messages and pages, and tests check the arithmetic against the paper
//! and an independent implementation. All three need the same pure functions.
//!
//! The choices this project made on top of the paper (issue 25, after Dominion Online's
//! published rules):
//! - **A rating period per game.** Each rated game updates every player in it at once,
//!   from everyone's ratings before the game.
//! - **Pairwise multiplayer games.** In a game of three or four, each pair of players
//!   counts as one result between them: a win for the better place, a loss for the worse,
//!   a tie (half a point each) for equal places. A player's rating period is all of their
//!   pairs, against the other players' pre-game ratings ([`rate_game`]).
//! - **Pools** ([`Pool`]): two-player games, three-to-four-player games and the bot
//!   ladder are rated separately, each with its own τ.
//! - **Levels** ([`level`]): what players see, `50 + 7.5 × (μ − 2φ)`, never below 0: a
//!   conservative estimate that rises as a player's deviation shrinks, so a newcomer
//!   starts near 20 and climbs by playing.

use std::f64::consts::PI;
use std::fmt;
use std::str::FromStr;

/// The Glicko-2 scale factor between the Glicko scale (1500 ± 350) and Glicko-2's μ, φ.
pub const SCALE: f64 = 173.7178;

/// The convergence tolerance of the volatility iteration, as the paper suggests.
pub const EPSILON: f64 = 0.000_001;

/// The most players a rated game may have (the issue rates 2–4 player games).
pub const MAX_PLAYERS: usize = 4;

/// A rating on the Glicko scale, as stored and shown: rating, deviation (RD) and
/// volatility (σ).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
}

impl Rating {
    /// A player who has not played in a pool yet: 1500 / 350 / 0.06, the paper's defaults.
    pub const DEFAULT: Rating = Rating {
        rating: 1500.0,
        deviation: 350.0,
        volatility: 0.06,
    };

    /// μ, on the Glicko-2 scale.
    pub fn mu(&self) -> f64 {
        (self.rating - 1500.0) / SCALE
    }

    /// φ, on the Glicko-2 scale.
    pub fn phi(&self) -> f64 {
        self.deviation / SCALE
    }

    /// The level shown for this rating ([`level`]).
    pub fn level(&self) -> f64 {
        level(self.rating, self.deviation)
    }

    /// Finite, with a positive deviation and volatility: what the formulas need.
    fn is_valid(&self) -> bool {
        self.rating.is_finite()
            && self.deviation.is_finite()
            && self.deviation > 0.0
            && self.volatility.is_finite()
            && self.volatility > 0.0
    }
}

impl Default for Rating {
    fn default() -> Rating {
        Rating::DEFAULT
    }
}

/// The level players see: `max(0, 50 + 7.5 × (μ − 2φ))`, with μ and φ on the Glicko-2
/// scale. A new player (1500 / 350) is at 50 + 7.5 × (0 − 2 × 350 / 173.7178) ≈ 19.78.
/// Subtracting two deviations makes it a conservative estimate: it grows as the system
/// becomes sure of a player, so one lucky win does not make a high level.
pub fn level(rating: f64, deviation: f64) -> f64 {
    let mu = (rating - 1500.0) / SCALE;
    let phi = deviation / SCALE;
    let level = 50.0 + 7.5 * (mu - 2.0 * phi);
    // `max` also turns a NaN (from a NaN input) into 0 rather than showing it.
    level.max(0.0)
}

/// The independent rating pools: a player has one rating in each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Pool {
    /// Two-player games (`2p`).
    TwoPlayer,
    /// Three- and four-player games (`3-4p`).
    Multiplayer,
    /// The bot ladder (`bots`): bot accounts against each other and the server's bots.
    Bots,
}

impl Pool {
    pub const ALL: [Pool; 3] = [Pool::TwoPlayer, Pool::Multiplayer, Pool::Bots];

    /// The name stored and sent on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            Pool::TwoPlayer => "2p",
            Pool::Multiplayer => "3-4p",
            Pool::Bots => "bots",
        }
    }

    /// The system constant τ, which bounds how fast volatility changes. 0.4 for
    /// two-player and 0.3 for three-to-four-player games, as Dominion Online uses. The
    /// bot ladder has no published value: it takes 0.4, the two-player one, because its
    /// games are two-player games too, and a bot's strength changes only when its author
    /// changes it.
    pub fn tau(self) -> f64 {
        match self {
            Pool::TwoPlayer => 0.4,
            Pool::Multiplayer => 0.3,
            Pool::Bots => 0.4,
        }
    }

    /// The human pool of a game of `players`: 2 → `2p`, 3 or 4 → `3-4p`, others unrated.
    pub fn for_players(players: usize) -> Option<Pool> {
        match players {
            2 => Some(Pool::TwoPlayer),
            3 | 4 => Some(Pool::Multiplayer),
            _ => None,
        }
    }
}

impl fmt::Display for Pool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Pool {
    type Err = RatingError;
    fn from_str(s: &str) -> Result<Pool, RatingError> {
        Pool::ALL
            .into_iter()
            .find(|p| p.as_str() == s)
            .ok_or_else(|| RatingError::UnknownPool(s.to_string()))
    }
}

/// Why a game could not be rated. Nothing is computed then.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum RatingError {
    #[error("a rated game has 2 to {MAX_PLAYERS} players, not {0}")]
    Players(usize),
    #[error("rating {0:?} is not a finite rating with a positive deviation and volatility")]
    Invalid(Rating),
    #[error("no rating pool {0:?} (the pools are 2p, 3-4p and bots)")]
    UnknownPool(String),
}

/// Glicko-2's g(φ): how much a result against an opponent with deviation φ weighs.
fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (PI * PI)).sqrt()
}

/// Glicko-2's E(μ, μj, φj): the expected score against that opponent.
fn expected(mu: f64, mu_j: f64, phi_j: f64) -> f64 {
    1.0 / (1.0 + (-g(phi_j) * (mu - mu_j)).exp())
}

/// One rating period for one player (the paper's steps 2 to 8): `results` are the
/// opponents' ratings before the period and the player's score against each (1 a win,
/// ½ a tie, 0 a loss). With no results only the deviation grows (step 6), as the paper
/// says for a player who did not compete. `tau` is the system constant.
pub fn update(player: Rating, results: &[(Rating, f64)], tau: f64) -> Rating {
    // Step 2: to the Glicko-2 scale.
    let mu = player.mu();
    let phi = player.phi();
    let sigma = player.volatility;
    if results.is_empty() {
        let phi_star = (phi * phi + sigma * sigma).sqrt();
        return Rating {
            rating: player.rating,
            deviation: phi_star * SCALE,
            volatility: sigma,
        };
    }

    // Steps 3 and 4: the estimated variance v and the improvement Δ.
    let mut v_inv = 0.0;
    let mut delta_sum = 0.0;
    for (opponent, score) in results {
        let (mu_j, phi_j) = (opponent.mu(), opponent.phi());
        let e = expected(mu, mu_j, phi_j);
        let gj = g(phi_j);
        v_inv += gj * gj * e * (1.0 - e);
        delta_sum += gj * (score - e);
    }
    let v = 1.0 / v_inv;
    let delta = v * delta_sum;

    // Step 5: the new volatility.
    let sigma_new = volatility(sigma, phi, v, delta, tau);

    // Steps 6 and 7: the new deviation and rating.
    let phi_star = (phi * phi + sigma_new * sigma_new).sqrt();
    let phi_new = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
    let mu_new = mu + phi_new * phi_new * delta_sum;

    // Step 8: back to the Glicko scale.
    Rating {
        rating: SCALE * mu_new + 1500.0,
        deviation: SCALE * phi_new,
        volatility: sigma_new,
    }
}

/// Step 5: σ′ by the "Illinois algorithm" (a regula falsi that halves the stale end's
/// value), to tolerance [`EPSILON`], as the paper gives it.
fn volatility(sigma: f64, phi: f64, v: f64, delta: f64, tau: f64) -> f64 {
    let a = (sigma * sigma).ln();
    let (phi2, delta2) = (phi * phi, delta * delta);
    let f = |x: f64| {
        let ex = x.exp();
        ex * (delta2 - phi2 - v - ex) / (2.0 * (phi2 + v + ex).powi(2)) - (x - a) / (tau * tau)
    };

    // Step 5.2: the initial bracket.
    let mut big_a = a;
    let mut big_b = if delta2 > phi2 + v {
        (delta2 - phi2 - v).ln()
    } else {
        let mut k = 1.0;
        // f is decreasing below a, so this ends; the cap only guards against NaN input.
        while f(a - k * tau) < 0.0 && k < 10_000.0 {
            k += 1.0;
        }
        a - k * tau
    };

    // Steps 5.3 and 5.4: narrow it.
    let mut f_a = f(big_a);
    let mut f_b = f(big_b);
    let mut rounds = 0;
    while (big_b - big_a).abs() > EPSILON && rounds < 1_000 {
        let big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
        let f_c = f(big_c);
        if f_c * f_b <= 0.0 {
            big_a = big_b;
            f_a = f_b;
        } else {
            f_a /= 2.0;
        }
        big_b = big_c;
        f_b = f_c;
        rounds += 1;
    }

    // Step 5.5.
    (big_a / 2.0).exp()
}

/// The score of a player in place `mine` against one in place `theirs` (1 is first): 1
/// for a better place, ½ for the same place (a tie), 0 for a worse one.
pub fn pair_score(mine: u32, theirs: u32) -> f64 {
    match mine.cmp(&theirs) {
        std::cmp::Ordering::Less => 1.0,
        std::cmp::Ordering::Equal => 0.5,
        std::cmp::Ordering::Greater => 0.0,
    }
}

/// Rates one game in `pool`: `players` are each player's rating before the game and
/// their place (1 is first; equal places tie). Every pair of players counts as a result
/// between them, and each player's rating period is all of their pairs against the
/// others' pre-game ratings (so the order of `players` changes nothing). Returns the new
/// ratings in the order given.
pub fn rate_game(pool: Pool, players: &[(Rating, u32)]) -> Result<Vec<Rating>, RatingError> {
    if !(2..=MAX_PLAYERS).contains(&players.len()) {
        return Err(RatingError::Players(players.len()));
    }
    if let Some((bad, _)) = players.iter().find(|(r, _)| !r.is_valid()) {
        return Err(RatingError::Invalid(*bad));
    }
    Ok(players
        .iter()
        .enumerate()
        .map(|(i, (me, place))| {
            let results: Vec<(Rating, f64)> = players
                .iter()
                .enumerate()
                .filter(|(j, _)| *j != i)
                .map(|(_, (them, theirs))| (*them, pair_score(*place, *theirs)))
                .collect();
            update(*me, &results, pool.tau())
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    /// The paper's worked example: τ = 0.5, a 1500 / 200 / 0.06 player beats a 1400 / 30
    /// player and loses to 1550 / 100 and 1700 / 300 ones → 1464.06 / 151.52 / 0.05999.
    #[test]
    fn the_papers_worked_example() {
        let player = Rating {
            rating: 1500.0,
            deviation: 200.0,
            volatility: 0.06,
        };
        let opponent = |rating, deviation| Rating {
            rating,
            deviation,
            volatility: 0.06,
        };
        let after = update(
            player,
            &[
                (opponent(1400.0, 30.0), 1.0),
                (opponent(1550.0, 100.0), 0.0),
                (opponent(1700.0, 300.0), 0.0),
            ],
            0.5,
        );
        // The paper rounds μ′ to −0.2069 before converting (173.7178 × −0.2069 + 1500 =
        // 1464.06); unrounded it is 1464.0507, so the paper's figure holds to 0.01.
        assert!(close(after.rating, 1464.06, 0.01), "{after:?}");
        assert!(close(after.rating, 1464.0507, 0.0001), "{after:?}");
        assert!(close(after.deviation, 151.52, 0.005), "{after:?}");
        // The paper prints σ′ = 0.05999 (cut to five places: it is 0.0599960).
        assert!(close(after.volatility, 0.05999, 0.000_01), "{after:?}");
        assert!(close(after.volatility, 0.059996, 0.000_001), "{after:?}");
        // And the paper's intermediate figures, on the Glicko-2 scale.
        assert!(close((after.rating - 1500.0) / SCALE, -0.2069, 0.0001));
        assert!(close(after.deviation / SCALE, 0.8722, 0.0001));
    }

    #[test]
    fn a_new_player_starts_near_twenty() {
        let l = Rating::DEFAULT.level();
        assert!(close(l, 19.7786, 0.0001), "{l}");
        assert!(close(
            level(1500.0, 350.0),
            50.0 - 15.0 * 350.0 / SCALE,
            1e-12
        ));
    }

    #[test]
    fn a_level_is_never_below_zero() {
        assert_eq!(level(0.0, 350.0), 0.0);
        assert_eq!(level(-5000.0, 10.0), 0.0);
        assert_eq!(level(f64::NAN, 100.0), 0.0);
        // 50 + 7.5 × (μ − 2φ) with μ = 1, φ = 0.5 exactly.
        let l = level(1500.0 + SCALE, SCALE / 2.0);
        assert!(close(l, 50.0, 1e-9), "{l}");
        // A certain strong player: 1500 + 5 × 173.7178, RD 50.
        let l = level(1500.0 + 5.0 * SCALE, 50.0);
        assert!(
            close(l, 50.0 + 7.5 * (5.0 - 2.0 * 50.0 / SCALE), 1e-9),
            "{l}"
        );
    }

    #[test]
    fn pools_have_their_names_and_taus() {
        for pool in Pool::ALL {
            assert_eq!(pool.as_str().parse::<Pool>(), Ok(pool));
        }
        assert_eq!(Pool::TwoPlayer.tau(), 0.4);
        assert_eq!(Pool::Multiplayer.tau(), 0.3);
        assert_eq!(Pool::Bots.tau(), 0.4);
        assert_eq!(Pool::for_players(2), Some(Pool::TwoPlayer));
        assert_eq!(Pool::for_players(3), Some(Pool::Multiplayer));
        assert_eq!(Pool::for_players(4), Some(Pool::Multiplayer));
        assert_eq!(Pool::for_players(1), None);
        assert_eq!(Pool::for_players(5), None);
        assert!(matches!(
            "5p".parse::<Pool>(),
            Err(RatingError::UnknownPool(_))
        ));
    }

    #[test]
    fn a_game_needs_two_to_four_valid_players() {
        let r = Rating::DEFAULT;
        assert_eq!(
            rate_game(Pool::TwoPlayer, &[(r, 1)]),
            Err(RatingError::Players(1))
        );
        assert_eq!(
            rate_game(Pool::Multiplayer, &[(r, 1); 5]),
            Err(RatingError::Players(5))
        );
        let bad = Rating {
            deviation: 0.0,
            ..r
        };
        assert!(matches!(
            rate_game(Pool::TwoPlayer, &[(r, 1), (bad, 2)]),
            Err(RatingError::Invalid(_))
        ));
    }

    #[test]
    fn a_win_raises_a_loss_lowers_and_a_tie_between_equals_keeps() {
        let r = Rating::DEFAULT;
        let after = rate_game(Pool::TwoPlayer, &[(r, 1), (r, 2)]).unwrap();
        assert!(after[0].rating > 1500.0 && after[1].rating < 1500.0);
        assert!(close(
            after[0].rating - 1500.0,
            1500.0 - after[1].rating,
            1e-9
        ));
        assert!(after[0].deviation < 350.0);
        let tie = rate_game(Pool::TwoPlayer, &[(r, 1), (r, 1)]).unwrap();
        assert!(close(tie[0].rating, 1500.0, 1e-9) && close(tie[1].rating, 1500.0, 1e-9));
    }

    /// Each pair is a result between them, every player's period uses everyone's
    /// pre-game ratings, and order does not matter.
    #[test]
    fn a_multiplayer_game_is_its_pairs() {
        let a = Rating {
            rating: 1600.0,
            deviation: 120.0,
            volatility: 0.059,
        };
        let b = Rating {
            rating: 1450.0,
            deviation: 200.0,
            volatility: 0.06,
        };
        let c = Rating {
            rating: 1520.0,
            deviation: 80.0,
            volatility: 0.061,
        };
        let d = Rating::DEFAULT;
        // b wins, a and d tie for second, c is last.
        let after = rate_game(Pool::Multiplayer, &[(a, 2), (b, 1), (c, 4), (d, 2)]).unwrap();
        let tau = 0.3;
        assert_eq!(after[0], update(a, &[(b, 0.0), (c, 1.0), (d, 0.5)], tau));
        assert_eq!(after[1], update(b, &[(a, 1.0), (c, 1.0), (d, 1.0)], tau));
        assert_eq!(after[2], update(c, &[(a, 0.0), (b, 0.0), (d, 0.0)], tau));
        assert_eq!(after[3], update(d, &[(a, 0.5), (b, 0.0), (c, 1.0)], tau));
        let reversed = rate_game(Pool::Multiplayer, &[(d, 2), (c, 4), (b, 1), (a, 2)]).unwrap();
        assert_eq!(reversed, after.iter().rev().copied().collect::<Vec<_>>());
    }

    #[test]
    fn no_games_only_widens_the_deviation() {
        let r = Rating {
            rating: 1700.0,
            deviation: 50.0,
            volatility: 0.06,
        };
        let after = update(r, &[], 0.5);
        assert_eq!(after.rating, 1700.0);
        assert!(after.deviation > 50.0);
        assert_eq!(after.volatility, 0.06);
    }
}
