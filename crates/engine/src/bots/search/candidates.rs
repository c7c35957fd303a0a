//! Which decisions are searched, and which replies are tried.
//!
//! Only the phase moves are searched: a playout can start from a state taken at an
//! Action-phase or Buy-phase decision (`turn::run_turn` goes on from there), but not
//! from the middle of a card's resolution, whose progress lives only on the stack. Every
//! other decision is the playout policy's.

use crate::card::CardId;
use crate::decision::{Prompt, Reply, Request};
use crate::view::Knowledge;

/// What to do with a request.
#[derive(Debug, PartialEq, Eq)]
pub enum Plan {
    /// Answer this without searching.
    Answer(Reply),
    /// Search among these (at least two, all legal; the policy's own choice first, so
    /// it wins ties).
    Search(Vec<Reply>),
}

/// The plan for `req`, given the policy's answer `policy` and what the bot knows.
pub fn plan(req: &Request, k: &Knowledge, policy: Reply) -> Plan {
    if req.card.is_some() {
        return Plan::Answer(policy);
    }
    let mut cands = vec![policy.clone()];
    match &req.prompt {
        Prompt::ActionPhase { playable } => {
            cands.extend(playable.iter().map(|c| Reply::Play(*c)));
            cands.push(Reply::EndPhase);
        }
        // Playing Treasures is no real choice in these sets: play them all, then the
        // buys are searched with the coins known.
        Prompt::BuyPhase { treasures, .. } if !treasures.is_empty() => {
            return Plan::Answer(Reply::PlayAllTreasures);
        }
        Prompt::BuyPhase { buyable, .. } => {
            let late = late_game(k);
            cands.extend(
                buyable
                    .iter()
                    .filter(|c| worth_trying(**c, late))
                    .map(|c| Reply::Buy(*c)),
            );
            cands.push(Reply::EndPhase);
        }
        _ => return Plan::Answer(policy),
    }
    let mut seen = Vec::with_capacity(cands.len());
    for c in cands {
        if !seen.contains(&c) && req.prompt.validate(&c).is_ok() {
            seen.push(c);
        }
    }
    match seen.len() {
        0 => Plan::Answer(policy),
        1 => Plan::Answer(seen.remove(0)),
        _ => Plan::Search(seen),
    }
}

/// Whether a buy is worth a playout: kingdom cards and the main Treasures and Victory
/// cards; Estates only near the end; never Copper or Curse (unless the policy picks it).
fn worth_trying(card: CardId, late: bool) -> bool {
    use CardId::*;
    match card {
        Province | Duchy | Gold | Silver => true,
        Estate => late,
        Copper | Curse => false,
        c => c.is_kingdom(),
    }
}

/// Near the end: few Provinces left, or one more empty pile from the end.
fn late_game(k: &Knowledge) -> bool {
    let provinces = k
        .supply
        .iter()
        .find(|p| p.card == CardId::Province)
        .map_or(0, |p| p.count);
    let empty = k.supply.iter().filter(|p| p.count == 0).count();
    let to_end = if k.seats.len() >= 5 { 4 } else { 3 };
    provinces <= 4 || empty + 1 >= to_end
}
