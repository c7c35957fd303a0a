//! Which decisions are searched, and which replies are tried.
//!
//! The phase moves are searched: a playout can start from a state taken at an
//! Action-phase or Buy-phase decision (`turn::run_turn` goes on from there), but not
//! from the middle of a card's resolution, whose progress lives only on the stack.
//!
//! One kind of card choice is searched too: the gain that ends a card's effect
//! (Workshop, Feast, Remodel, Upgrade, Mine) played in the Action phase, when no Throne
//! Room is in play (whose second resolution would still be to come). Once that gain is
//! made the card is done and the turn is back in its Action phase, so a playout can
//! make the gain on the sample and go on from there.
//!
//! Every other decision is the playout policy's.

use crate::card::CardId;
use crate::decision::{Prompt, Purpose, Reply, Request};
use crate::event::Destination;
use crate::state::Phase;
use crate::view::Knowledge;

/// What to do with a request.
#[derive(Debug, PartialEq, Eq)]
pub enum Plan {
    /// Answer this without searching.
    Answer(Reply),
    /// Search among `cands` (at least two, all legal; the policy's own choice first, so
    /// it wins ties); `resume` says how a playout starts from a candidate.
    Search { cands: Vec<Reply>, resume: Resume },
}

/// How a playout goes on from the searched decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Resume {
    /// A phase decision: the game asks it again, and the candidate is the answer.
    Ask,
    /// A card's last effect, gaining the chosen pile's card to `to`: the playout makes
    /// the gain on the sample and goes on in the Action phase.
    AfterGain(Destination),
    /// Chapel's choice (review only, see `review`): the playout trashes the chosen
    /// cards from the hand on the sample and goes on in the Action phase.
    AfterTrash,
}

/// Cards whose last effect is a gain chosen from the Supply, and where it goes.
fn ending_gain(card: CardId) -> Option<Destination> {
    use CardId::*;
    match card {
        Workshop | Feast | Remodel | Upgrade => Some(Destination::Discard),
        Mine => Some(Destination::Hand),
        _ => None,
    }
}

/// Whether `req` is a card's ending gain that a playout can go on from (see the module
/// doc): the current player's, in its Action phase, with no Throne Room in play.
fn resumable_gain(req: &Request, k: &Knowledge) -> Option<Destination> {
    let to = ending_gain(req.card?)?;
    let in_play = &k.seats[k.current.idx()].in_play;
    (req.purpose == Purpose::Gain
        && matches!(req.prompt, Prompt::ChoosePile { .. })
        && req.player == k.current
        && k.turn.phase == Phase::Action
        && !in_play.contains(&CardId::ThroneRoom))
    .then_some(to)
}

/// The plan for `req`, given the policy's answer `policy` and what the bot knows.
pub fn plan(req: &Request, k: &Knowledge, policy: Reply) -> Plan {
    let resume = match req.card {
        None => Resume::Ask,
        Some(_) => match resumable_gain(req, k) {
            Some(to) => Resume::AfterGain(to),
            None => return Plan::Answer(policy),
        },
    };
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
        Prompt::ChoosePile { options, .. } if resume != Resume::Ask => {
            let late = late_game(k);
            cands.extend(
                options
                    .iter()
                    .filter(|c| worth_trying(**c, late))
                    .map(|c| Reply::Pile(Some(*c))),
            );
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
        _ => Plan::Search {
            cands: seen,
            resume,
        },
    }
}

/// Whether a buy (or gain) is worth a playout: kingdom cards and the main Treasures and Victory
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
