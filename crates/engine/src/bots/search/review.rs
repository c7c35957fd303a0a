//! Game review: the search bot's opinion of each decision a player made in a finished
//! game, from that player's knowledge at that moment.
//!
//! - **Knowledge only.** [`points`] replays the record and, at each decision of a
//!   reviewed seat that the search bot would search, copies out that seat's
//!   [`Knowledge`] — never the state. [`evaluate`] sees nothing else, so a review cannot
//!   depend on a hidden card (the same argument and test as the search bot's).
//! - **Paired.** Every candidate (the answer given, the policy's, the other serious
//!   ones: see [`candidates`](super::candidates)) is played out on the same sampled
//!   deals with the same playout seeds, so the difference between two candidates is
//!   measured on the same luck; its standard error is that of the paired differences.
//! - **Resumable.** Each point is evaluated on its own, seeded from the review seed and
//!   the point's reply index only: a caller may store each [`DecisionReview`] as it is
//!   made and, after a restart, evaluate only the rest — the result is the same.
//! - **Marks** ([`Mark`]) come from the drop in win chance between the best answer found
//!   and the answer given, and only when that drop is clear of the noise: the thresholds
//!   and [`DEFAULT_PLAYOUTS`] come from a measurement (docs/review.md).
//! - **Which decisions**: those the search bot searches, and two kinds only the review
//!   looks at — Chapel's trash and a Buy-phase answer that leaves Treasures in hand
//!   (`review_plan`); the search bot's own play is unchanged.

use super::candidates::{self, Plan, Resume};
use super::rollout;
use super::sample;
use crate::agent::Agent;
use crate::bots::{StandardBot, Thinking};
use crate::card::CardId;
use crate::decision::{Prompt, Purpose, Reply, Request};
use crate::game::{Game, GameRecord, ReplayError};
use crate::state::{Phase, PlayerId};
use crate::view::{Knowledge, Observation};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// The version of [`DecisionReview`]'s and [`Review`]'s serialized form and of the
/// method behind them (candidates, thresholds): a stored review of another version is
/// made again rather than mixed with new results.
pub const REVIEW_VERSION: u32 = 2;

/// One decision to review: who made it, what they knew, what they were asked and what
/// they answered.
#[derive(Clone, Debug)]
pub struct Point {
    /// The reply's index in the record (0-based): also the replay step it follows.
    pub index: usize,
    pub player: PlayerId,
    /// The game's turn number at the decision (`State::turn_count`).
    pub turn: u32,
    pub knowledge: Knowledge,
    pub request: Request,
    pub given: Reply,
    /// The candidates to compare, the answer given among them.
    cands: Vec<Reply>,
    resume: Resume,
}

/// How a decision was judged.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mark {
    Inaccuracy,
    Mistake,
    Blunder,
}

/// One candidate's estimate.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CandidateValue {
    pub reply: Reply,
    /// Estimated win chance (a k-way tie counts 1/k), 0–1.
    pub win: f64,
    /// Its paired difference to the answer given: mean and standard error.
    pub diff: f64,
    pub diff_se: f64,
}

/// The review of one decision.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DecisionReview {
    pub index: usize,
    pub player: PlayerId,
    pub turn: u32,
    pub given: Reply,
    /// The best answer found (the given one when nothing is clearly better).
    pub best: Reply,
    pub given_win: f64,
    pub best_win: f64,
    /// `best_win - given_win` as a paired mean (≥ 0), and its standard error.
    pub drop: f64,
    pub drop_se: f64,
    /// Sampled deals the candidates were compared on.
    pub samples: u32,
    /// Every candidate, best first.
    pub candidates: Vec<CandidateValue>,
    pub mark: Option<Mark>,
}

/// A player's win chance over the game, one point per reviewed decision.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GraphPoint {
    pub index: usize,
    pub turn: u32,
    /// The win chance after the answer given.
    pub win: f64,
}

/// A player's part of a review.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayerReview {
    pub player: PlayerId,
    pub graph: Vec<GraphPoint>,
    pub inaccuracies: u32,
    pub mistakes: u32,
    pub blunders: u32,
}

/// A whole game's review.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Review {
    pub version: u32,
    pub players: Vec<PlayerReview>,
    /// In reply order.
    pub decisions: Vec<DecisionReview>,
}

/// The review's default budget per decision, in playouts (all candidates together),
/// when the caller gives no clock: see docs/review.md for how it was chosen.
pub const DEFAULT_PLAYOUTS: u32 = 4_000;

/// Thresholds on the drop in win chance (see [`mark`]).
pub const INACCURACY: f64 = 0.05;
pub const MISTAKE: f64 = 0.10;
pub const BLUNDER: f64 = 0.20;
/// A drop must also exceed this many standard errors to be marked at all.
pub const CLEAR: f64 = 2.0;

/// The mark a drop earns, if any.
pub fn mark(drop: f64, drop_se: f64) -> Option<Mark> {
    if drop <= CLEAR * drop_se {
        return None;
    }
    match drop {
        d if d >= BLUNDER => Some(Mark::Blunder),
        d if d >= MISTAKE => Some(Mark::Mistake),
        d if d >= INACCURACY => Some(Mark::Inaccuracy),
        _ => None,
    }
}

/// The decisions of `seats` worth reviewing in `record`, in reply order.
///
/// A Buy-phase move answered at the Action-phase decision (Play all Treasures, or a Buy
/// that plays them first: `crate::combined`) is reviewed as the moves it stands for —
/// ending the Action phase, then the Buy phase's moves with the Treasures' coins known —
/// each a point at that reply's index: the buy is the choice worth reviewing, and it is
/// made in the Buy phase's state.
pub fn points(record: &GameRecord, seats: &[PlayerId]) -> Result<Vec<Point>, ReplayError> {
    let mut g = Game::new_under(&record.setup, record.seed, record.rules)?;
    let mut out = Vec::new();
    for (index, (p, r)) in record.replies.iter().enumerate() {
        let combined = g.pending().is_some_and(|req| {
            req.player == *p
                && crate::combined::is_combined_move(&req.prompt, r)
                && g.check(*p, r).is_ok()
        });
        let mut step = if combined { Reply::EndPhase } else { r.clone() };
        loop {
            if seats.contains(p)
                && let Some(req) = g.pending()
                && req.player == *p
                && let Some(point) = point(&g, req, index, &step)
            {
                out.push(point);
            }
            g.answer(*p, step.clone())
                .map_err(|error| ReplayError::Reply { index, error })?;
            if !combined || step == *r {
                break;
            }
            // The Buy phase after the Action phase a combined move ended: its Treasures
            // first, while any are offered, then its Buy.
            step = match g.pending().map(|req| &req.prompt) {
                Some(Prompt::BuyPhase { treasures, .. })
                    if !treasures.is_empty() && step == Reply::EndPhase =>
                {
                    Reply::PlayAllTreasures
                }
                _ => r.clone(),
            };
        }
    }
    Ok(out)
}

fn point(g: &Game, req: &Request, index: usize, given: &Reply) -> Option<Point> {
    let obs = Observation::for_player(g, req.player);
    let k = obs.knowledge();
    // A fresh policy per decision: its answer depends on this observation alone.
    let policy = StandardBot::new().decide(&obs, req);
    let (mut cands, resume) = review_plan(req, &k, policy, given)?;
    // The answer given exactly as given (a Chapel choice in its own order).
    cands.retain(|c| c == given || !same_answer(c, given));
    if !cands.contains(given) {
        if req.prompt.validate(given).is_err() {
            return None;
        }
        cands.push(given.clone());
    }
    Some(Point {
        index,
        player: req.player,
        turn: k.turn_count,
        knowledge: k,
        request: req.clone(),
        given: given.clone(),
        cands,
        resume,
    })
}

/// The candidates for a decision the review looks at (the policy's answer first), and
/// how a playout goes on from them: what the search bot searches ([`candidates::plan`]),
/// and two kinds more that only the review looks at (the bot's own play is unchanged):
///
/// - **Chapel's choice** ([`chapel_candidates`]), when Chapel is played in the Action
///   phase with no Throne Room in play: the trash is Chapel's only effect, so the
///   playout makes it on the sample and goes on in the Action phase
///   ([`Resume::AfterTrash`]).
/// - **Leaving Treasures in hand**: a Buy-phase answer other than playing them all
///   (ending the phase, or buying at once) while Treasures are in hand, compared with
///   playing them all, after which the policy buys.
fn review_plan(
    req: &Request,
    k: &Knowledge,
    policy: Reply,
    given: &Reply,
) -> Option<(Vec<Reply>, Resume)> {
    if let Plan::Search { cands, resume } = candidates::plan(req, k, policy.clone()) {
        return Some((cands, resume));
    }
    match &req.prompt {
        Prompt::ChooseCards { options, max, .. } if chapel_choice(req, k) => {
            let cands = chapel_candidates(options, usize::from(*max), &policy)
                .into_iter()
                .filter(|c| req.prompt.validate(c).is_ok())
                .collect::<Vec<_>>();
            (cands.len() + usize::from(!cands.iter().any(|c| same_answer(c, given))) >= 2)
                .then_some((cands, Resume::AfterTrash))
        }
        Prompt::BuyPhase { treasures, .. }
            if !treasures.is_empty() && matches!(given, Reply::EndPhase | Reply::Buy(_)) =>
        {
            Some((vec![Reply::PlayAllTreasures], Resume::Ask))
        }
        _ => None,
    }
}

/// Whether `req` is Chapel's choice with nothing of the card left to resolve after it:
/// the current player's, in its Action phase, with no Throne Room in play.
fn chapel_choice(req: &Request, k: &Knowledge) -> bool {
    req.card == Some(CardId::Chapel)
        && req.purpose == Purpose::Trash
        && req.player == k.current
        && k.turn.phase == Phase::Action
        && !k.seats[k.current.idx()]
            .in_play
            .contains(&CardId::ThroneRoom)
}

/// Chapel's candidates from the hand `options` (trash up to `max`): the policy's
/// answer, trashing nothing, the Curses and Estates, and those then Coppers.
fn chapel_candidates(options: &[CardId], max: usize, policy: &Reply) -> Vec<Reply> {
    let of = |wanted: &[CardId]| {
        let mut cards: Vec<CardId> = wanted
            .iter()
            .flat_map(|w| options.iter().filter(move |o| *o == w).copied())
            .collect();
        cards.truncate(max);
        Reply::Cards(cards)
    };
    let mut out = vec![policy.clone()];
    for c in [
        Reply::Cards(Vec::new()),
        of(&[CardId::Curse, CardId::Estate]),
        of(&[CardId::Curse, CardId::Estate, CardId::Copper]),
    ] {
        if !out.iter().any(|o| same_answer(o, &c)) {
            out.push(c);
        }
    }
    out
}

/// Whether two answers are the same choice: equal, or the same cards in another order.
fn same_answer(a: &Reply, b: &Reply) -> bool {
    match (a, b) {
        (Reply::Cards(x), Reply::Cards(y)) => {
            let (mut x, mut y) = (x.clone(), y.clone());
            x.sort();
            y.sort();
            x == y
        }
        _ => a == b,
    }
}

/// Evaluates one point within `thinking` (a playout cap and an optional clock), its
/// samples seeded from `seed` and the point's index alone.
pub fn evaluate(point: &Point, seed: u64, thinking: &Thinking) -> DecisionReview {
    let mut rng =
        ChaCha8Rng::seed_from_u64(seed ^ (point.index as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let n = point.cands.len();
    let given = point
        .cands
        .iter()
        .position(|c| *c == point.given)
        .expect("the answer given is a candidate");
    let start = thinking.clock.as_ref().map(|c| c());
    let out_of_time = || match (&thinking.clock, start) {
        (Some(c), Some(s)) => c().saturating_sub(s) >= thinking.budget_us,
        _ => false,
    };
    // Per candidate: sum of win shares, and the paired differences to the given answer
    // (sum, sum of squares).
    let mut wins = vec![0.0f64; n];
    let mut diffs = vec![(0.0f64, 0.0f64); n];
    let mut samples = 0u32;
    let per_sample = n as u32;
    while (samples + 1) * per_sample <= thinking.max_playouts.max(per_sample) && !out_of_time() {
        let deal = sample::determinize(&point.knowledge, &mut rng);
        let playout_seed = rng.next_u64();
        let values: Vec<f64> = point
            .cands
            .iter()
            .map(|c| {
                let scores = rollout::playout_scores(
                    deal.clone(),
                    point.player,
                    c,
                    point.resume,
                    playout_seed,
                );
                rollout::win_share(&scores, point.player)
            })
            .collect();
        for c in 0..n {
            wins[c] += values[c];
            let d = values[c] - values[given];
            diffs[c].0 += d;
            diffs[c].1 += d * d;
        }
        samples += 1;
    }
    let m = f64::from(samples.max(1));
    let se = |(sum, sq): (f64, f64)| {
        if samples < 2 {
            return 1.0;
        }
        let mean = sum / m;
        (((sq - m * mean * mean) / (m - 1.0)).max(0.0) / m).sqrt()
    };
    let mut cands: Vec<CandidateValue> = (0..n)
        .map(|c| CandidateValue {
            reply: point.cands[c].clone(),
            win: wins[c] / m,
            diff: diffs[c].0 / m,
            diff_se: se(diffs[c]),
        })
        .collect();
    // Best first; among equal estimates the answer given stays ahead.
    cands.sort_by(|a, b| {
        b.diff
            .total_cmp(&a.diff)
            .then_with(|| (b.reply == point.given).cmp(&(a.reply == point.given)))
    });
    let best = &cands[0];
    let (drop, drop_se) = (best.diff.max(0.0), best.diff_se);
    let mark = mark(drop, drop_se);
    let best_reply = if mark.is_some() {
        best.reply.clone()
    } else {
        point.given.clone()
    };
    DecisionReview {
        index: point.index,
        player: point.player,
        turn: point.turn,
        given: point.given.clone(),
        best_win: cands
            .iter()
            .find(|c| c.reply == best_reply)
            .map_or(0.0, |c| c.win),
        best: best_reply,
        given_win: wins[given] / m,
        drop,
        drop_se,
        samples,
        candidates: cands,
        mark,
    }
}

/// Puts the reviews of the points of `seats` together (any order in; reply order out).
pub fn assemble(seats: &[PlayerId], mut decisions: Vec<DecisionReview>) -> Review {
    decisions.sort_by_key(|d| d.index);
    let players = seats
        .iter()
        .map(|&player| {
            let mine = || decisions.iter().filter(move |d| d.player == player);
            let count = |m: Mark| mine().filter(|d| d.mark == Some(m)).count() as u32;
            PlayerReview {
                player,
                graph: mine()
                    .map(|d| GraphPoint {
                        index: d.index,
                        turn: d.turn,
                        win: d.given_win,
                    })
                    .collect(),
                inaccuracies: count(Mark::Inaccuracy),
                mistakes: count(Mark::Mistake),
                blunders: count(Mark::Blunder),
            }
        })
        .collect();
    Review {
        version: REVIEW_VERSION,
        players,
        decisions,
    }
}

/// Reviews the whole game for `seats` at once (for the simulator and tests; the server
/// evaluates point by point to store progress). `progress` is called after each point.
pub fn review(
    record: &GameRecord,
    seats: &[PlayerId],
    seed: u64,
    thinking: &Thinking,
    mut progress: impl FnMut(usize, usize),
) -> Result<Review, ReplayError> {
    let pts = points(record, seats)?;
    let mut done = Vec::with_capacity(pts.len());
    for (i, p) in pts.iter().enumerate() {
        done.push(evaluate(p, seed, thinking));
        progress(i + 1, pts.len());
    }
    Ok(assemble(seats, done))
}

/// What the search bot would answer to `req` now, for a player's Hint: its answer as in
/// a game, within `thinking`, from `obs` alone.
pub fn hint(obs: &Observation, req: &Request, seed: u64, thinking: &Thinking) -> Reply {
    super::SearchBot::new(seed, thinking.clone()).decide(obs, req)
}

#[cfg(test)]
#[path = "review_tests.rs"]
mod tests;
