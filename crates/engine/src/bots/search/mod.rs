//! `search`: the strongest level. For the decisions that matter it samples what its
//! player cannot see (determinization) and plays each option out to the end with the
//! card-aware bot, within a thinking budget.
//!
//! - **Knowledge only.** It reads the game through [`Observation::knowledge`], which
//!   copies out the public facts and its own cards; [`sample::determinize`] deals the
//!   unknown cards from that alone. Its choices are the same whatever the hidden cards
//!   are (a test proves it), for a given seed and thinking budget without a clock.
//! - **Which decisions.** Action-phase moves (which Action to play, or none), buys
//!   (which card, or none; Treasures are all played first) and the gain that ends
//!   Workshop, Feast, Remodel, Upgrade or Mine (no Throne Room in play), see
//!   [`candidates`]. Every other decision — a card's other choices mid-resolution,
//!   Reactions, other players' questions on its turn — is answered by the playout
//!   policy (`standard`): a playout can only start where no card is being resolved
//!   (or one has just finished), as the rest of such a turn lives on the stack of the
//!   card's code.
//! - **Playouts** ([`rollout`]): the sampled state goes on from the decision with the
//!   candidate reply, then every seat plays as `standard` to the end of the game; a win
//!   is worth 1, a k-way tie 1/k, plus a small VP-margin term.
//! - **Allocation**: sequential halving over the alternatives to the policy's answer —
//!   each round spends an equal share of the budget on every surviving one, then keeps
//!   the better half. Each sample is played with the policy's answer and with every
//!   surviving alternative (common random numbers: the same deal, the same seeds), so
//!   each alternative is measured by its paired difference to the policy's answer. It
//!   stops at `max_playouts` or when the caller's clock says `budget_us` have passed.
//! - **Choice**: the policy's answer stands unless an alternative beats it by more than
//!   [`CONFIDENCE`] standard errors of those differences. Taking the best of many noisy
//!   means instead rewards luck, and measured worse than the policy itself (37.5% of 40
//!   games against `standard` on base_2e/first_game at 1,000 playouts, 55% with this).

mod candidates;
pub mod review;
pub(crate) mod rollout;
mod sample;
#[cfg(test)]
mod tests;

pub use candidates::{Plan, Resume, plan};
pub use sample::determinize;

use super::Thinking;
use crate::agent::Agent;
use crate::decision::{Reply, Request};
use crate::view::{Knowledge, Observation};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// What the last searched decision cost (for measurements).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    pub candidates: usize,
    pub playouts: u32,
}

/// How many standard errors an option must beat the policy's answer by to replace it.
const CONFIDENCE: f64 = 1.5;

pub struct SearchBot {
    seed: u64,
    thinking: Thinking,
    /// Decisions seen so far: each one's sampling seed is derived from it, so that a bot
    /// replays identically from the same observations.
    decisions: u64,
    policy: Box<dyn Agent + Send>,
    last: Option<SearchStats>,
}

impl SearchBot {
    pub fn new(seed: u64, thinking: Thinking) -> SearchBot {
        SearchBot {
            seed,
            thinking,
            decisions: 0,
            policy: rollout::policy(seed),
            last: None,
        }
    }

    /// What the last decision searched, if it was searched.
    pub fn last_search(&self) -> Option<SearchStats> {
        self.last
    }

    fn search(&self, k: &Knowledge, cands: &[Reply], resume: Resume) -> (usize, u32) {
        let mut rng = ChaCha8Rng::seed_from_u64(
            self.seed ^ self.decisions.wrapping_mul(0x9e37_79b9_7f4a_7c15),
        );
        let clock = self.thinking.clock.clone();
        let start = clock.as_ref().map(|c| c());
        // Microseconds thought so far, by the caller's clock (None without one).
        let elapsed = || match (&clock, start) {
            (Some(c), Some(s)) => Some(c().saturating_sub(s)),
            _ => None,
        };
        let budget_us = self.thinking.budget_us;
        let out_of_time = || elapsed().is_some_and(|t| t >= budget_us);
        let budget = self.thinking.max_playouts;
        let n = cands.len();
        // Each candidate's value on a sample minus the policy's (candidate 0) on the same
        // sample: sum, sum of squares and count. Paired on the same luck, the
        // differences vary far less than the values themselves.
        let mut diff = vec![(0.0f64, 0.0f64, 0u32); n];
        let mut alive: Vec<usize> = (1..n).collect();
        let rounds = usize::BITS - (n - 1).leading_zeros(); // ⌈log2⌉
        let mut used = 0u32;
        'rounds: for round in 0..rounds {
            let per_sample = alive.len() as u32 + 1;
            let share = (budget / (rounds * per_sample)).max(1);
            // With a clock, each round also has its share of the time, so that halving
            // happens even when the playout cap is far out of reach.
            let round_ends = budget_us / u64::from(rounds) * u64::from(round + 1);
            for _ in 0..share {
                // The clock is read before every playout, so a budget is kept to within
                // one playout; a sample cut short leaves the pairs it made.
                let t = elapsed();
                if used + per_sample > budget || t.is_some_and(|t| t >= budget_us) {
                    break 'rounds;
                }
                if t.is_some_and(|t| t >= round_ends) {
                    break;
                }
                let deal = sample::determinize(k, &mut rng);
                let seed = rng.next_u64();
                let base = rollout::playout(deal.clone(), k.me, &cands[0], resume, seed);
                used += 1;
                for &c in &alive {
                    if out_of_time() {
                        break 'rounds;
                    }
                    let d = rollout::playout(deal.clone(), k.me, &cands[c], resume, seed) - base;
                    let e = &mut diff[c];
                    e.0 += d;
                    e.1 += d * d;
                    e.2 += 1;
                    used += 1;
                }
            }
            let mean = |c: usize| diff[c].0 / f64::from(diff[c].2.max(1));
            // Stable: among equal means the earlier candidate stays ahead.
            alive.sort_by(|a, b| mean(*b).total_cmp(&mean(*a)));
            alive.truncate(alive.len().div_ceil(2));
        }
        // The policy's answer stands unless another one beats it clearly: by more than
        // CONFIDENCE standard errors of the paired differences. Picking the best of many
        // noisy means otherwise rewards luck and plays worse than the policy itself.
        let clear_gain = |c: usize| {
            let (sum, sq, count) = diff[c];
            if count < 8 {
                return None;
            }
            let m = f64::from(count);
            let mean = sum / m;
            let var = ((sq - m * mean * mean) / (m - 1.0)).max(0.0);
            (mean > CONFIDENCE * (var / m).sqrt() && mean > 0.0).then_some(mean)
        };
        let best = alive
            .iter()
            .filter_map(|&c| clear_gain(c).map(|g| (c, g)))
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .map_or(0, |(c, _)| c);
        (best, used)
    }
}

impl Agent for SearchBot {
    fn name(&self) -> &str {
        "search"
    }

    fn decide(&mut self, obs: &Observation, req: &Request) -> Reply {
        self.answer(obs, req, true).0
    }

    fn thinks(&self) -> bool {
        true
    }

    /// The policy's answer where `decide` would search (the first candidate, which a
    /// search with no playouts keeps), and exactly `decide`'s answer elsewhere.
    fn decide_at_once(&mut self, obs: &Observation, req: &Request) -> (Reply, bool) {
        self.answer(obs, req, false)
    }
}

impl SearchBot {
    /// Answers `req`, searching if `think` and the request is one worth it; says whether
    /// a search was skipped.
    fn answer(&mut self, obs: &Observation, req: &Request, think: bool) -> (Reply, bool) {
        self.decisions += 1;
        self.last = None;
        let policy = self.policy.decide(obs, req);
        if req.player != obs.me() {
            return (policy, false);
        }
        let k = obs.knowledge();
        match candidates::plan(req, &k, policy) {
            Plan::Answer(r) => (r, false),
            Plan::Search { mut cands, .. } if !think => (cands.swap_remove(0), true),
            Plan::Search { cands, resume } => {
                let (best, playouts) = self.search(&k, &cands, resume);
                self.last = Some(SearchStats {
                    candidates: cands.len(),
                    playouts,
                });
                (cands[best].clone(), false)
            }
        }
    }
}
