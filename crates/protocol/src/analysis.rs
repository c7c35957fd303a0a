//! The review of an ended game (`GET /api/games/{id}/analysis`): the Hard bot's opinion
//! of each human player's decisions, from that player's knowledge at that moment — the
//! estimated win chance of the answer given, of the best answer found and of the other
//! serious candidates, marks (inaccuracy, mistake, blunder) and a win-chance graph per
//! player — and the progress of a review still being made.

use crate::client::Reply;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The version of the [`GameAnalysis`] format this crate describes; within one format,
/// fields are only ever added.
pub const GAME_ANALYSIS_FORMAT: u32 = 1;

/// A game's review (`GET /api/games/{id}/analysis`, 200).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct GameAnalysis {
    pub format: u32,
    /// The game's room id.
    pub game: String,
    /// The most playouts each decision's candidates were compared on (all candidates
    /// together), and the wall-clock budget per decision in milliseconds: how hard the
    /// bot thought.
    pub playouts: u32,
    pub budget_ms: u64,
    /// One entry per reviewed seat (the human seats), in seat order.
    pub players: Vec<AnalysisPlayer>,
    /// Every reviewed decision, in the order they were asked.
    pub decisions: Vec<AnalysedDecision>,
}

/// One reviewed player.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct AnalysisPlayer {
    pub seat: u8,
    pub name: String,
    /// The player's estimated win chance after each reviewed decision.
    pub graph: Vec<WinPoint>,
    pub inaccuracies: u32,
    pub mistakes: u32,
    pub blunders: u32,
}

/// A point of a player's win-chance graph.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct WinPoint {
    /// The decision's replay step (see [`AnalysedDecision::step`]).
    pub step: u32,
    pub turn: u32,
    /// The estimated win chance after the answer given, 0–1 (a k-way tie counts 1/k).
    pub win: f64,
}

/// How a decision was judged, by the drop in win chance from the best answer found to
/// the answer given (thresholds in docs/protocol.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum DecisionMark {
    Inaccuracy,
    Mistake,
    Blunder,
}

/// One reviewed decision.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct AnalysedDecision {
    /// The reply's index in the record: the decision was asked at replay step `step`
    /// (`GET /api/games/{id}/steps/{step}`), and its answer is the record's reply
    /// number `step`.
    pub step: u32,
    pub seat: u8,
    pub turn: u32,
    /// The answer given.
    pub given: Reply,
    /// The best answer found (the one given when nothing was clearly better).
    pub best: Reply,
    pub given_win: f64,
    pub best_win: f64,
    /// `best_win - given_win`, measured on the same samples, and its standard error.
    pub drop: f64,
    pub drop_se: f64,
    /// Sampled deals the candidates were compared on.
    pub samples: u32,
    /// Null when the decision earned no mark (always sent).
    #[serde(default)]
    pub mark: Option<DecisionMark>,
    /// Every candidate compared, best first.
    pub candidates: Vec<AnalysedCandidate>,
}

/// One candidate answer's estimate.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct AnalysedCandidate {
    pub reply: Reply,
    pub win: f64,
    /// Its difference in win chance to the answer given (paired), and the standard error.
    pub diff: f64,
    pub diff_se: f64,
}

/// A review not ready yet (`GET /api/games/{id}/analysis`, 202): ask again later.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum AnalysisProgress {
    /// Waiting for a worker; `position` reviews are ahead of it (0: next).
    Queued { position: u32 },
    /// Being made: `done` of `total` decisions reviewed.
    Running { done: u32, total: u32 },
}
