//! A game's review as the wire shows it (`GET /api/games/{id}/analysis`): the engine's
//! [`Review`] made into the protocol's [`wire::GameAnalysis`], and each stored
//! [`DecisionReview`] as the JSON the store keeps.
//!
//! Stored decisions use the engine's serde: they are the analysis pool's working state,
//! tied to [`dominion_engine::review::REVIEW_VERSION`] (a stored analysis of another
//! version is recomputed, never read), so unlike a game's record they need not outlive
//! the engine that wrote them. What clients see is only ever the wire type made here.

use crate::convert::to_wire;
use dominion_engine::PlayerId;
use dominion_engine::review::{DecisionReview, Mark, Review};
use dominion_protocol as wire;

/// A decision's review as stored.
pub fn encode_decision(d: &DecisionReview) -> String {
    serde_json::to_string(d).expect("a review serializes")
}

/// A stored decision's review.
pub fn decode_decision(text: &str) -> Result<DecisionReview, String> {
    serde_json::from_str(text).map_err(|e| format!("unreadable stored decision: {e}"))
}

fn mark(m: Mark) -> wire::DecisionMark {
    match m {
        Mark::Inaccuracy => wire::DecisionMark::Inaccuracy,
        Mark::Mistake => wire::DecisionMark::Mistake,
        Mark::Blunder => wire::DecisionMark::Blunder,
    }
}

/// The published review of `game` (its room id); `names` gives each seat's name.
pub fn analysis(
    game: &str,
    review: &Review,
    names: &[(u8, String)],
    playouts: u32,
    budget_ms: u64,
) -> wire::GameAnalysis {
    let name = |p: PlayerId| {
        names
            .iter()
            .find(|(s, _)| *s == p.0)
            .map(|(_, n)| n.clone())
            .unwrap_or_default()
    };
    wire::GameAnalysis {
        format: wire::GAME_ANALYSIS_FORMAT,
        game: game.to_string(),
        playouts,
        budget_ms,
        players: review
            .players
            .iter()
            .map(|p| wire::AnalysisPlayer {
                seat: p.player.0,
                name: name(p.player),
                graph: p
                    .graph
                    .iter()
                    .map(|g| wire::WinPoint {
                        step: g.index as u32,
                        turn: g.turn,
                        win: g.win,
                    })
                    .collect(),
                inaccuracies: p.inaccuracies,
                mistakes: p.mistakes,
                blunders: p.blunders,
            })
            .collect(),
        decisions: review.decisions.iter().map(decision).collect(),
    }
}

fn decision(d: &DecisionReview) -> wire::AnalysedDecision {
    wire::AnalysedDecision {
        step: d.index as u32,
        seat: d.player.0,
        turn: d.turn,
        given: to_wire::reply(&d.given),
        best: to_wire::reply(&d.best),
        given_win: d.given_win,
        best_win: d.best_win,
        drop: d.drop,
        drop_se: d.drop_se,
        samples: d.samples,
        mark: d.mark.map(mark),
        candidates: d
            .candidates
            .iter()
            .map(|c| wire::AnalysedCandidate {
                reply: to_wire::reply(&c.reply),
                win: c.win,
                diff: c.diff,
                diff_se: c.diff_se,
            })
            .collect(),
    }
}
